package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"ctx/sources"
)

func newSourcesCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "sources",
		Short: "List the agent history sources ctx discovers",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			rep := sources.Discover(env.Source(), sources.Builtin(), func(p string) bool {
				_, err := os.Stat(p)
				return err == nil
			})
			if f.json() {
				return writeJSON(env.Stdout, rep)
			}
			for _, s := range rep.Sources {
				state := "not found"
				if s.Present {
					state = fmt.Sprintf("%d files", s.Files)
				}
				fmt.Fprintf(env.Stdout, "%-12s %-9s %-40s %s\n", s.Provider, s.Selection.Kind, s.Location, state)
				for _, is := range s.Issues {
					fmt.Fprintf(env.Stdout, "  issue %s\n", is)
				}
				if s.Truncated {
					fmt.Fprintf(env.Stdout, "  (more issues not shown)\n")
				}
			}
			return nil
		},
	}
}
