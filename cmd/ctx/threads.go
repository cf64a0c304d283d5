package main

import (
	"github.com/spf13/cobra"
)

func newThreadsCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "threads",
		Short: "List, show and extend the durable threads agents save sessions to",
		Args:  cobra.NoArgs,
		RunE:  f.textOrJSON(func(*cobra.Command, []string) error { return runThreadsList(env, f) }),
	}
	cmd.AddCommand(newThreadsListCmd(env, f), newThreadsShowCmd(env, f), newThreadsAddCmd(env, f))
	return cmd
}
