package main

import (
	"github.com/spf13/cobra"

	"ctx/app"
)

func newSyncCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Share sessions across machines and a team through git remotes: pull, then push, every remote",
		Long: "ctx sync pulls the other machines' sessions from every remote, then pushes this\n" +
			"machine's shared view ([sync.include] in config.toml). See ctx docs show sync.",
		Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(cmd *cobra.Command, _ []string) error {
			a, req := env.App(), app.SyncRequest{Stderr: env.Stderr}
			pulled, err := a.SyncPull(cmd.Context(), req)
			if err != nil {
				return err
			}
			pushed, err := a.SyncPush(cmd.Context(), req)
			if err != nil {
				return err
			}
			return f.write(env, syncOutput{Pulled: pulled, Pushed: pushed}, func() {
				printPulled(env, pulled)
				printPushed(env, pushed)
			})
		}),
	}
	cmd.AddCommand(newSyncRemoteCmd(env, f), newSyncPushCmd(env, f), newSyncPullCmd(env, f),
		newSyncStatusCmd(env, f), newSyncKeyCmd(env, f))
	return cmd
}

type syncOutput struct {
	Pulled []app.SyncPulled `json:"pulled"`
	Pushed []app.SyncPushed `json:"pushed"`
}
