package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/gitstore"
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
	cmd.AddCommand(newSyncRemoteCmd(env, f),
		&cobra.Command{Use: "push [NAME]", Short: "Push this machine's shared sessions to a remote (every remote without NAME)",
			Args: cobra.MaximumNArgs(1), RunE: answer(env, f, onRemotes(env, (*app.App).SyncPush), printPushed)},
		&cobra.Command{Use: "pull [NAME]", Short: "Merge the other machines' sessions from a remote (every remote without NAME)",
			Args: cobra.MaximumNArgs(1), RunE: answer(env, f, onRemotes(env, (*app.App).SyncPull), printPulled)},
		&cobra.Command{Use: "status [NAME]", Short: "Per machine of each remote: merged, behind, new; this machine: pushed or ahead",
			Args: cobra.MaximumNArgs(1), RunE: answer(env, f, onRemotes(env, (*app.App).SyncStatus), printSyncStatus)},
		newSyncKeyCmd(env, f))
	return cmd
}

type syncOutput struct {
	Pulled []app.SyncPulled `json:"pulled"`
	Pushed []app.SyncPushed `json:"pushed"`
}

// onRemotes runs a sync verb on the remote NAME names, or on every remote.
func onRemotes[T any](env *Env, verb func(*app.App, context.Context, app.SyncRequest) (T, error)) func(*cobra.Command, []string) (T, error) {
	return func(cmd *cobra.Command, args []string) (T, error) {
		return verb(env.App(), cmd.Context(), app.SyncRequest{Remote: firstArg(args), Stderr: env.Stderr})
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

func firstArg(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}
