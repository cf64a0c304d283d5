package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
)

func newIngestListCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List reported sessions, newest first, with their provenance",
		Args:  cobra.NoArgs,
		RunE: f.textOrJSON(func(*cobra.Command, []string) error {
			h, err := handoff(env)
			if err != nil {
				return err
			}
			l, err := h.ListReports()
			if err != nil {
				return handoffErr(err)
			}
			return f.write(env, l, func() { printReports(env, l) })
		}),
	}
}

func printReports(env *Env, l *app.IngestList) {
	if len(l.Sessions) == 0 {
		fmt.Fprintln(env.Stdout, "no reported sessions")
	}
	for _, s := range l.Sessions {
		fmt.Fprintf(env.Stdout, "%s  %s  %-12s via %-9s r%d  %s\n", s.ReportedID, s.Last.Format("2006-01-02 15:04"),
			oneLine(s.Harness), s.Door, s.Revisions, oneLine(s.Title))
	}
}
