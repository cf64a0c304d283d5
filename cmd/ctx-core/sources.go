package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
)

func newSourcesCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "sources",
		Short: "List the agent history sources ctx discovers",
		Args:  cobra.NoArgs,
		RunE: answer(env, f, func(cmd *cobra.Command, _ []string) (*app.SourcesReport, error) {
			return env.App().Sources(cmd.Context())
		}, printSources),
	}
}

func printSources(env *Env, rep *app.SourcesReport) {
	if !rep.AutomaticDiscovery {
		fmt.Fprintln(env.Stdout, "automatic discovery is off (config.toml)")
	}
	for _, s := range rep.Sources {
		state := "not found"
		if s.Present {
			state = fmt.Sprintf("%d files", s.Files)
		}
		name := s.Selection.Kind
		if s.Selection.Root != nil {
			name += " root=" + *s.Selection.Root
		}
		if s.Selection.Group != nil {
			name += " group=" + *s.Selection.Group
		}
		fmt.Fprintf(env.Stdout, "%-12s %-28s %-40s %s\n", s.Provider, name, oneLine(s.Location), state)
		for _, is := range s.Issues {
			fmt.Fprintf(env.Stdout, "  issue %s\n", is)
		}
		if s.Truncated {
			fmt.Fprintf(env.Stdout, "  (more issues not shown)\n")
		}
	}
}
