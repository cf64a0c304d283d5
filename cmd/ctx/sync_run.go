package main

import (
	"context"
	"errors"
	"fmt"
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

// syncer returns the store's syncer, making its machine id on first use.
func syncer(env *Env) (*gitstore.Syncer, error) {
	host, _ := os.Hostname()
	machine, err := gitstore.Machine(env.CtxHome(), host)
	if err != nil {
		return nil, err
	}
	return &gitstore.Syncer{Home: env.CtxHome(), Machine: machine, Now: env.Now,
		Transport: &gitstore.Transport{Stderr: env.Stderr}}, nil
}

// syncInclude is the [sync.include] selector of config.toml (nil: share
// nothing).
func syncInclude(env *Env) (func(core.TreeEntry) bool, error) {
	cfg, err := config.Load(env.Source())
	if err != nil {
		return nil, err
	}
	return gitstore.Include(cfg.Sync.Include.Workspaces, cfg.Sync.Include.Providers), nil
}

// syncSource is the active generation to share.
func syncSource(home string) (gitstore.Source, error) {
	s, err := objects.OpenExisting(store.At(home).Objects())
	if err != nil {
		return gitstore.Source{}, &query.Error{Code: query.CodeNoHistory, Message: "nothing imported yet: run ctx import"}
	}
	id, err := refs.OpenExisting(home).Get(refs.Active)
	if errors.Is(err, refs.ErrNoRef) {
		return gitstore.Source{}, &query.Error{Code: query.CodeNoHistory, Message: "nothing imported yet: run ctx import"}
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
func syncMerger(env *Env, rep **ingest.Report) gitstore.Merger {
	return func(ctx context.Context, in []gitstore.Incoming) error {
		rs := make([]ingest.Remote, len(in))
		for i, x := range in {
			rs[i] = ingest.Remote{Machine: x.Machine, Commit: x.Commit.String(), Tree: x.Tree, Objects: x.Snapshot}
		}
		r, err := ingest.Adopt(ctx, ingest.Options{Home: env.CtxHome(), Version: version, Now: env.Now,
			Busy: func() { fmt.Fprintln(env.Stderr, "ctx: another import is writing the store; waiting for it…") }}, rs)
		*rep = r
		return err
	}
}

// syncRemotes returns the remote named, or every remote when name is "".
func syncRemotes(home, name string) ([]gitstore.Remote, error) {
	if name != "" {
		r, err := gitstore.FindRemote(home, name)
		return []gitstore.Remote{r}, err
	}
	rs, err := gitstore.Remotes(home)
	if err == nil && len(rs) == 0 {
		err = fmt.Errorf("%w: add one with ctx sync remote add NAME URL", gitstore.ErrNoRemote)
	}
	return rs, err
}
