package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
)

func newSyncStatusCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "status [NAME]",
		Short: "Per machine of each remote: merged, behind, new; this machine: pushed or ahead",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			out, err := env.App().SyncStatus(cmd.Context(), app.SyncRequest{Remote: firstArg(args), Stderr: env.Stderr})
			if err != nil {
				return err
			}
			if f.json() {
				return writeJSON(env.Stdout, out)
			}
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
			return nil
		},
	}
}
