package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newIngestRmCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID",
		Short: "Forget a reported session (rep_… or ses_…): out of search now and of every later import",
		Long: "Remove a reported session with the same forget as ctx forget: the generation it\n" +
			"publishes has no trace of it in the tree, search or vectors, no later import brings\n" +
			"it back, and ctx gc drops its bytes. The inbox keeps the removal as a record.",
		Args: cobra.ExactArgs(1),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			h, err := handoff(env)
			if err != nil {
				return err
			}
			id, err := h.RemoveReport(cmd.Context(), args[0], cliCaller(""))
			if err != nil {
				return handoffErr(err)
			}
			return f.write(env, IngestRemoved{Removed: id},
				func() { fmt.Fprintf(env.Stdout, "removed %s: forgotten (ctx gc drops its bytes)\n", id) })
		}),
	}
}

// IngestRemoved is ctx ingest rm --format json.
type IngestRemoved struct {
	Removed string `json:"removed"`
}
