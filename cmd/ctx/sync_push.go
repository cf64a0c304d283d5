package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"ctx/gitstore"
)

type pushOutput struct {
	Remote     string `json:"remote"`
	Machine    string `json:"machine"`
	Commit     string `json:"commit"`
	Pushed     bool   `json:"pushed"`
	Generation uint64 `json:"generation"`
	Sessions   int    `json:"sessions"`
	Events     int    `json:"events"`
	Objects    int    `json:"objects"`
	NewObjects int    `json:"new_objects"`
	NewBytes   int64  `json:"new_bytes"`
	Encryption string `json:"encryption"`
}

func newSyncPushCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "push [NAME]",
		Short: "Push this machine's shared sessions to a remote (every remote without NAME)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			out, err := runSyncPush(cmd.Context(), env, firstArg(args))
			if err != nil {
				return err
			}
			if f.json() {
				return writeJSON(env.Stdout, out)
			}
			printPushed(env, out)
			return nil
		},
	}
}

func runSyncPush(ctx context.Context, env *Env, name string) ([]pushOutput, error) {
	remotes, err := syncRemotes(env.CtxHome(), name)
	if err != nil {
		return nil, err
	}
	include, err := syncInclude(env)
	if err != nil {
		return nil, err
	}
	if include == nil {
		return nil, gitstore.ErrNothingShared
	}
	s, err := syncer(env)
	if err != nil {
		return nil, err
	}
	src, err := syncSource(env.CtxHome())
	if err != nil {
		return nil, err
	}
	out := []pushOutput{}
	for _, r := range remotes {
		rep, err := s.Push(ctx, r, src, include)
		if err != nil {
			return nil, fmt.Errorf("remote %s: %w", r.Name, err)
		}
		m := rep.Exported.Manifest
		out = append(out, pushOutput{Remote: r.Name, Machine: rep.Machine, Commit: rep.Commit.String(), Pushed: rep.Pushed,
			Generation: m.Generation, Sessions: m.Sessions, Events: m.Events, Objects: m.Objects,
			NewObjects: rep.Exported.NewObjects, NewBytes: rep.Exported.NewBytes, Encryption: rep.Encryption})
	}
	return out, nil
}

func printPushed(env *Env, out []pushOutput) {
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
