package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newIngestRmCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID",
		Short: "Remove a reported session (rep_… or ses_…) from the next import and from search",
		Long: "Remove a reported session: the next import (the daemon's, woken now, or ctx import)\n" +
			"publishes it without its events, so search no longer finds it; ctx gc then drops\n" +
			"their bytes. The inbox keeps the removal as a record.",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			h, err := handoff(env)
			if err != nil {
				return err
			}
			id, err := h.RemoveReport(args[0], cliCaller(""))
			if err != nil {
				return handoffErr(err)
			}
			if f.json() {
				return writeJSON(env.Stdout, IngestRemoved{Removed: id})
			}
			fmt.Fprintf(env.Stdout, "removed %s: gone from search after the next import\n", id)
			return nil
		},
	}
}

// IngestRemoved is ctx ingest rm --format json.
type IngestRemoved struct {
	Removed string `json:"removed"`
}
