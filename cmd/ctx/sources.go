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
		RunE: f.textOrJSON(func(cmd *cobra.Command, _ []string) error {
			rep, err := env.App().Sources(cmd.Context())
			if err != nil {
				return err
			}
			return f.write(env, rep, func() { printSources(env, rep) })
		}),
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
