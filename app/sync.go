package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"ctx/config"
	"ctx/core"
	"ctx/gitstore"
	"ctx/ingest"
	"ctx/objects"
	"ctx/query"
	"ctx/refs"
	"ctx/store"
)

// SyncRequest names the remote of a sync use case ("" for every remote)
// and where git's own progress and prompts go.
type SyncRequest struct {
	Remote string
	Stderr io.Writer
}

// SyncPushed is what a push to one remote did (ctx sync push --format json).
type SyncPushed struct {
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
	// ExportMS is the time writing the commit took, TransportMS the time
	// in git's transport.
	ExportMS    int64 `json:"export_ms"`
	TransportMS int64 `json:"transport_ms"`
}

// SyncPulled is what a pull from one remote merged (ctx sync pull
// --format json).
type SyncPulled struct {
	Remote     string          `json:"remote"`
	Merged     []MergedMachine `json:"merged"`
	Published  bool            `json:"published"`
	Generation uint64          `json:"generation,omitempty"`
	Sessions   int             `json:"sessions_written"`
	Events     int             `json:"events_indexed"`
	// Forgotten and Restored are what the other machines' tombstones did
	// here: sessions they forgot, and forgets they undid.
	Forgotten int `json:"sessions_forgotten"`
	Restored  int `json:"sessions_restored"`
}

// MergedMachine is one other machine's shared history a pull merged.
type MergedMachine struct {
	Machine  string `json:"machine"`
	Commit   string `json:"commit"`
	Sessions int    `json:"sessions"`
	Events   int    `json:"events"`
}

// SyncPush pushes this machine's shared view ([sync.include]) of the
// active generation to the remote named, or to every remote.
func (a *App) SyncPush(ctx context.Context, req SyncRequest) ([]SyncPushed, error) {
	remotes, s, err := a.syncStart(req)
	if err != nil {
		return nil, err
	}
	include, err := a.syncInclude()
	if err != nil {
		return nil, err
	}
	if include == nil {
		return nil, gitstore.ErrNothingShared
	}
	src, err := a.syncSource()
	if err != nil {
		return nil, err
	}
	out := []SyncPushed{}
	for _, r := range remotes {
		rep, err := s.Push(ctx, r, src, include)
		if err != nil {
			return nil, fmt.Errorf("remote %s: %w", r.Name, err)
		}
		m := rep.Exported.Manifest
		out = append(out, SyncPushed{Remote: r.Name, Machine: rep.Machine, Commit: rep.Commit.String(), Pushed: rep.Pushed,
			Generation: m.Generation, Sessions: m.Sessions, Events: m.Events, Objects: m.Objects,
			NewObjects: rep.Exported.NewObjects, NewBytes: rep.Exported.NewBytes, Encryption: rep.Encryption,
			ExportMS: rep.Export.Milliseconds(), TransportMS: rep.Transport.Milliseconds()})
	}
	return out, nil
}

// SyncPull merges the other machines' histories from the remote named, or
// from every remote, into the store (one generation per remote that
// brought something new).
func (a *App) SyncPull(ctx context.Context, req SyncRequest) ([]SyncPulled, error) {
	remotes, s, err := a.syncStart(req)
	if err != nil {
		return nil, err
	}
	out := []SyncPulled{}
	for _, r := range remotes {
		var ing *ingest.Report
		rep, err := s.Pull(ctx, r, a.syncMerger(req.Stderr, &ing))
		if err != nil {
			return nil, fmt.Errorf("remote %s: %w", r.Name, err)
		}
		o := SyncPulled{Remote: r.Name, Merged: []MergedMachine{}}
		for _, in := range rep.Merged {
			m := in.Snapshot.Manifest
			o.Merged = append(o.Merged, MergedMachine{Machine: in.Machine, Commit: in.Commit.String(), Sessions: m.Sessions, Events: m.Events})
		}
		if ing != nil && ing.Published {
			o.Published, o.Generation = true, ing.Generation.Number
			o.Sessions, o.Events = ing.SessionsWrote, ing.EventsIndexed
			o.Forgotten, o.Restored = ing.SessionsForgotten, ing.SessionsRestored
		}
		out = append(out, o)
	}
	return out, nil
}

// SyncStatus reports, per remote, each machine's state against this store
// (merged, behind, new) and this machine's (pushed or ahead).
func (a *App) SyncStatus(ctx context.Context, req SyncRequest) ([]*gitstore.StatusReport, error) {
	remotes, s, err := a.syncStart(req)
	if err != nil {
		return nil, err
	}
	src, err := a.syncSource()
	if err != nil && query.CodeOf(err) != query.CodeNoHistory {
		return nil, err
	}
	include, err := a.syncInclude()
	if err != nil {
		return nil, err
	}
	out := []*gitstore.StatusReport{}
	for _, r := range remotes {
		st, err := s.Status(ctx, r, src, include)
		if err != nil {
			return nil, fmt.Errorf("remote %s: %w", r.Name, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// syncStart resolves the request's remotes and the store's syncer.
func (a *App) syncStart(req SyncRequest) ([]gitstore.Remote, *gitstore.Syncer, error) {
	remotes, err := a.syncRemotes(req.Remote)
	if err != nil {
		return nil, nil, err
	}
	s, err := a.syncer(req.Stderr)
	return remotes, s, err
}

// syncer returns the store's syncer, making its machine id on first use.
func (a *App) syncer(stderr io.Writer) (*gitstore.Syncer, error) {
	host, _ := os.Hostname()
	machine, err := gitstore.Machine(a.home, host)
	if err != nil {
		return nil, err
	}
	if stderr == nil {
		stderr = io.Discard
	}
	return &gitstore.Syncer{Home: a.home, Machine: machine, Now: a.now, Transport: &gitstore.Transport{Stderr: stderr}}, nil
}

// syncInclude is the [sync.include] selector of config.toml (nil: share
// nothing).
func (a *App) syncInclude() (func(core.TreeEntry) bool, error) {
	cfg, err := config.Load(a.env)
	if err != nil {
		return nil, err
	}
	return gitstore.Include(cfg.Sync.Include.Workspaces, cfg.Sync.Include.Providers), nil
}

// syncSource is the active generation to share.
func (a *App) syncSource() (gitstore.Source, error) {
	noHistory := &query.Error{Code: query.CodeNoHistory, Message: "nothing imported yet: run ctx import"}
	s, err := objects.OpenExisting(store.At(a.home).Objects())
	if err != nil {
		return gitstore.Source{}, noHistory
	}
	id, err := refs.OpenExisting(a.home).Get(refs.Active)
	if errors.Is(err, refs.ErrNoRef) {
		return gitstore.Source{}, noHistory
	}
	if err != nil {
		return gitstore.Source{}, err
	}
	g, err := refs.Load(s, id)
	if err != nil {
		return gitstore.Source{}, err
	}
	return gitstore.Source{Objects: s, Generation: g, GenerationID: id}, nil
}

// syncMerger merges pulled commits into the store as one generation.
func (a *App) syncMerger(stderr io.Writer, rep **ingest.Report) gitstore.Merger {
	return func(ctx context.Context, in []gitstore.Incoming) error {
		rs := make([]ingest.Remote, len(in))
		for i, x := range in {
			rs[i] = ingest.Remote{Machine: x.Machine, Commit: x.Commit.String(), Tree: x.Tree, Objects: x.Snapshot,
				Forgotten: x.Forgotten}
		}
		r, err := ingest.Adopt(ctx, ingest.Options{Home: a.home, Version: a.version, Now: a.now,
			Busy: func() {
				if stderr != nil {
					fmt.Fprintln(stderr, "ctx: another import is writing the store; waiting for it…")
				}
			}}, rs)
		*rep = r
		return err
	}
}

// syncRemotes returns the remote named, or every remote when name is "".
func (a *App) syncRemotes(name string) ([]gitstore.Remote, error) {
	if name != "" {
		r, err := gitstore.FindRemote(a.home, name)
		return []gitstore.Remote{r}, err
	}
	rs, err := gitstore.Remotes(a.home)
	if err == nil && len(rs) == 0 {
		err = fmt.Errorf("%w: add one with ctx sync remote add NAME URL", gitstore.ErrNoRemote)
	}
	return rs, err
}
