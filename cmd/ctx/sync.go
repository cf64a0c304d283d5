package main

import (
	"github.com/spf13/cobra"
)

func newSyncCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Share sessions across machines and a team through git remotes: pull, then push, every remote",
		Long: "ctx sync pulls the other machines' sessions from every remote, then pushes this\n" +
			"machine's shared view ([sync.include] in config.toml). See ctx docs show sync.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			pulled, err := runSyncPull(cmd.Context(), env, "")
			if err != nil {
				return err
			}
			pushed, err := runSyncPush(cmd.Context(), env, "")
			if err != nil {
				return err
			}
			if f.json() {
				return writeJSON(env.Stdout, syncOutput{Pulled: pulled, Pushed: pushed})
			}
			printPulled(env, pulled)
			printPushed(env, pushed)
			return nil
		},
	}
	cmd.AddCommand(newSyncRemoteCmd(env, f), newSyncPushCmd(env, f), newSyncPullCmd(env, f),
		newSyncStatusCmd(env, f), newSyncKeyCmd(env, f))
	return cmd
}

type syncOutput struct {
	Pulled []pullOutput `json:"pulled"`
	Pushed []pushOutput `json:"pushed"`
}
