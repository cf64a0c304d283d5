package main

import (
	"strings"

	"github.com/spf13/cobra"

	"ctx/sources"
)

// completeValues makes the shell complete a flag from fixed values.
func completeValues(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// completeProviders completes a flag with the built-in provider names.
func completeProviders(cmd *cobra.Command, flag string) {
	completeValues(cmd, flag, sources.Names(sources.Builtin())...)
}

// recentCompletions is how many recent sessions a session argument completes.
const recentCompletions = 30

// recentSessions completes a session argument with the ids of the most
// recently active sessions, the title as each one's description. It reads
// the store only when one exists and never fails the shell.
func recentSessions(env *Env) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		rows, err := env.App().RecentSessions(cmd.Context(), recentCompletions)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, s := range rows {
			if strings.HasPrefix(s.CtxSessionID, prefix) {
				out = append(out, cobra.CompletionWithDesc(s.CtxSessionID, s.Provider+": "+fit(oneLine(s.Title), 60)))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}
