package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/gitstore"
)

func newSyncStatusCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "status [NAME]",
		Short: "Per machine of each remote: merged, behind, new; this machine: pushed or ahead",
		Args:  cobra.MaximumNArgs(1),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			out, err := env.App().SyncStatus(cmd.Context(), app.SyncRequest{Remote: firstArg(args), Stderr: env.Stderr})
			if err != nil {
				return err
			}
			return f.write(env, out, func() { printSyncStatus(env, out) })
		}),
	}
}

func printSyncStatus(env *Env, out []*gitstore.StatusReport) {
	for _, st := range out {
		fmt.Fprintf(env.Stdout, "%s %s%s\n", st.Remote, st.URL, map[bool]string{true: " (encrypted)"}[st.Encrypt])
		for _, m := range st.Machines {
			who := ""
			if m.ThisMachine {
				who = " (this machine)"
			}
			fmt.Fprintf(env.Stdout, "  %-12s %s%s\n", m.State, m.Machine, who)
		}
	}
}
