package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
)

func newIngestCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ingest",
		Short: "Review the sessions agents reported (save_session, ingest_context)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List reported sessions, newest first, with their provenance",
		Args:  cobra.NoArgs,
		RunE: answer(env, f, func(*cobra.Command, []string) (*app.IngestList, error) {
			return onHandoff(env, (*app.Handoff).ListReports)
		}, printReports),
	}, &cobra.Command{
		Use:   "rm ID",
		Short: "Forget a reported session (rep_… or ses_…): out of search now and of every later import",
		Long: "Remove a reported session with the same forget as ctx forget: the generation it\n" +
			"publishes has no trace of it in the tree, search or vectors, no later import brings\n" +
			"it back, and ctx gc drops its bytes. The inbox keeps the removal as a record.",
		Args: cobra.ExactArgs(1),
		RunE: answer(env, f, func(cmd *cobra.Command, args []string) (IngestRemoved, error) {
			id, err := onHandoff(env, func(h *app.Handoff) (string, error) {
				return h.RemoveReport(cmd.Context(), args[0], cliCaller(""))
			})
			return IngestRemoved{Removed: id}, err
		}, func(env *Env, r IngestRemoved) {
			fmt.Fprintf(env.Stdout, "removed %s: forgotten (ctx gc drops its bytes)\n", r.Removed)
		}),
	})
	return cmd
}

// IngestRemoved is ctx ingest rm --format json.
type IngestRemoved struct {
	Removed string `json:"removed"`
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
