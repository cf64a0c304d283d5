package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
)

func newSyncPullCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "pull [NAME]",
		Short: "Merge the other machines' sessions from a remote (every remote without NAME)",
		Args:  cobra.MaximumNArgs(1),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			out, err := env.App().SyncPull(cmd.Context(), app.SyncRequest{Remote: firstArg(args), Stderr: env.Stderr})
			if err != nil {
				return err
			}
			return f.write(env, out, func() { printPulled(env, out) })
		}),
	}
}

func printPulled(env *Env, out []app.SyncPulled) {
	for _, p := range out {
		if len(p.Merged) == 0 {
			fmt.Fprintf(env.Stdout, "%s: nothing new\n", p.Remote)
			continue
		}
		for _, m := range p.Merged {
			fmt.Fprintf(env.Stdout, "%s: machine %s shares %d sessions, %d events\n", p.Remote, m.Machine, m.Sessions, m.Events)
		}
		if p.Published {
			fmt.Fprintf(env.Stdout, "%s: merged into generation %d: %d sessions written, %d events indexed\n",
				p.Remote, p.Generation, p.Sessions, p.Events)
			if p.Forgotten+p.Restored > 0 {
				fmt.Fprintf(env.Stdout, "%s: %d sessions forgotten and %d restored, as other machines forgot or restored them\n",
					p.Remote, p.Forgotten, p.Restored)
			}
		} else {
			fmt.Fprintf(env.Stdout, "%s: this store already holds those histories\n", p.Remote)
		}
	}
}
