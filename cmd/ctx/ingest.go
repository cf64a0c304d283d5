package main

import (
	"github.com/spf13/cobra"
)

func newIngestCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ingest",
		Short: "Review the sessions agents reported (save_session, ingest_context)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newIngestListCmd(env, f), newIngestRmCmd(env, f))
	return cmd
}
