package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
)

func newSyncPushCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "push [NAME]",
		Short: "Push this machine's shared sessions to a remote (every remote without NAME)",
		Args:  cobra.MaximumNArgs(1),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			out, err := env.App().SyncPush(cmd.Context(), app.SyncRequest{Remote: firstArg(args), Stderr: env.Stderr})
			if err != nil {
				return err
			}
			return f.write(env, out, func() { printPushed(env, out) })
		}),
	}
}

func printPushed(env *Env, out []app.SyncPushed) {
	for _, p := range out {
		if !p.Pushed {
			fmt.Fprintf(env.Stdout, "%s: up to date (%d sessions, %d events of machine %s)\n", p.Remote, p.Sessions, p.Events, p.Machine)
			continue
		}
		fmt.Fprintf(env.Stdout, "%s: pushed %d sessions, %d events as machine %s (%d new objects, %s)\n",
			p.Remote, p.Sessions, p.Events, p.Machine, p.NewObjects, humanBytes(p.NewBytes))
	}
}

func firstArg(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}
