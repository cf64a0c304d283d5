package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"ctx/ingest"
)

type pullOutput struct {
	Remote     string          `json:"remote"`
	Merged     []mergedMachine `json:"merged"`
	Published  bool            `json:"published"`
	Generation uint64          `json:"generation,omitempty"`
	Sessions   int             `json:"sessions_written"`
	Events     int             `json:"events_indexed"`
}

type mergedMachine struct {
	Machine  string `json:"machine"`
	Commit   string `json:"commit"`
	Sessions int    `json:"sessions"`
	Events   int    `json:"events"`
}

func newSyncPullCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "pull [NAME]",
		Short: "Merge the other machines' sessions from a remote (every remote without NAME)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			out, err := runSyncPull(cmd.Context(), env, firstArg(args))
			if err != nil {
				return err
			}
			if f.json() {
				return writeJSON(env.Stdout, out)
			}
			printPulled(env, out)
			return nil
		},
	}
}

func runSyncPull(ctx context.Context, env *Env, name string) ([]pullOutput, error) {
	remotes, err := syncRemotes(env.CtxHome(), name)
	if err != nil {
		return nil, err
	}
	s, err := syncer(env)
	if err != nil {
		return nil, err
	}
	out := []pullOutput{}
	for _, r := range remotes {
		var ing *ingest.Report
		rep, err := s.Pull(ctx, r, syncMerger(env, &ing))
		if err != nil {
			return nil, fmt.Errorf("remote %s: %w", r.Name, err)
		}
		o := pullOutput{Remote: r.Name, Merged: []mergedMachine{}}
		for _, in := range rep.Merged {
			m := in.Snapshot.Manifest
			o.Merged = append(o.Merged, mergedMachine{Machine: in.Machine, Commit: in.Commit.String(), Sessions: m.Sessions, Events: m.Events})
		}
		if ing != nil && ing.Published {
			o.Published, o.Generation = true, ing.Generation.Number
			o.Sessions, o.Events = ing.SessionsWrote, ing.EventsIndexed
		}
		out = append(out, o)
	}
	return out, nil
}

func printPulled(env *Env, out []pullOutput) {
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
		} else {
			fmt.Fprintf(env.Stdout, "%s: this store already holds those histories\n", p.Remote)
		}
	}
}
