package app

import (
	"context"
	"errors"

	"ctx/config"
	"ctx/core"
	"ctx/ingest"
	"ctx/query"
	"ctx/sources"
	"ctx/sources/redact"
	"ctx/store"
	"ctx/wake"
)

// Plan is what an import as configured reads and how: the sources
// config.toml and automatic discovery select, and the redactor that runs
// before anything is stored (nil when redaction is off).
type Plan struct {
	Config   *config.Config
	Sources  []core.Source
	Redactor ingest.Redactor
	// Exclude is config.toml's [exclude] (nil when it names nothing).
	Exclude func(*core.Session) bool
}

// Plan resolves config.toml into the sources an import reads; only, when
// not empty, keeps those provider ids (an unknown one is invalid_request).
func (a *App) Plan(only []string) (*Plan, error) {
	cfg, err := config.Load(a.env)
	if err != nil {
		return nil, err
	}
	planned, err := sources.PlanFor(cfg, only, a.hookedRepos())
	if err != nil {
		return nil, &query.Error{Code: query.CodeInvalidRequest, Message: err.Error()}
	}
	p := &Plan{Config: cfg, Sources: planned}
	if cfg.HasExcludes() {
		p.Exclude = func(s *core.Session) bool { return cfg.Excludes(s.Provider, s.Workspace) }
	}
	if cfg.RedactionEnabled() {
		p.Redactor = redact.New()
	}
	return p, nil
}

// hookedRepos are the repositories where ctx hooks are installed (none
// when the list cannot be read: discovery goes on without them).
func (a *App) hookedRepos() []string {
	repos, _ := store.At(a.home).ReadHookedRepos()
	return repos
}

// ImportOptions configure Import.
type ImportOptions struct {
	Only     []string              // provider ids; all when empty
	Busy     func()                // called when another writer holds the store
	Progress func(ingest.Progress) // called as files finish
	// ViaDaemon hands the import to a running daemon (the single writer)
	// and waits for the generation it publishes; ignored with Only.
	ViaDaemon bool
}

// ImportResult is what an import did: Report when this process imported,
// Daemon when a running daemon did.
type ImportResult struct {
	Report *ingest.Report
	Daemon *wake.Reply
}

// Import imports the history config.toml selects and publishes a generation
// when anything changed.
func (a *App) Import(ctx context.Context, opts ImportOptions) (*ImportResult, error) {
	p, err := a.Plan(opts.Only)
	if err != nil {
		return nil, err
	}
	if opts.ViaDaemon && len(opts.Only) == 0 {
		r, err := wake.ImportViaDaemon(ctx, a.home)
		if err == nil {
			return &ImportResult{Daemon: &r}, nil
		}
		if !errors.Is(err, wake.ErrNotRunning) {
			return nil, err
		}
	}
	rep, err := ingest.Run(ctx, ingest.Options{Home: a.home, Env: a.env, Sources: p.Sources, Version: a.version,
		Now: a.now, Redactor: p.Redactor, Exclude: p.Exclude, Busy: opts.Busy, Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	return &ImportResult{Report: rep}, nil
}

// Refresh brings the store up to date as configured, quietly: the bounded
// refresh a git hook runs before linking a commit. A running daemon does
// the import (the single writer, whose pass covers everything written
// before the call); without one this process imports, waiting for the
// writer lock within ctx rather than linking with a store another import
// is about to bring up to date.
func (a *App) Refresh(ctx context.Context) error {
	_, err := a.Import(ctx, ImportOptions{ViaDaemon: true, Busy: func() {}})
	return err
}

// refreshHere is Refresh without the daemon: for a hook the daemon did
// not answer.
func (a *App) refreshHere(ctx context.Context) error {
	_, err := a.Import(ctx, ImportOptions{Busy: func() {}})
	return err
}
