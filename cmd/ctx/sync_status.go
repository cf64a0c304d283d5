package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/gitstore"
	"ctx/query"
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
			remotes, err := syncRemotes(env.CtxHome(), firstArg(args))
			if err != nil {
				return err
			}
			s, err := syncer(env)
			if err != nil {
				return err
			}
			src, err := syncSource(env.CtxHome())
			if err != nil && query.CodeOf(err) != query.CodeNoHistory {
				return err
			}
			include, err := syncInclude(env)
			if err != nil {
				return err
			}
			out := []*gitstore.StatusReport{}
			for _, r := range remotes {
				st, err := s.Status(cmd.Context(), r, src, include)
				if err != nil {
					return fmt.Errorf("remote %s: %w", r.Name, err)
				}
				out = append(out, st)
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
