package relevance

import (
	"context"
	"fmt"
	"path/filepath"

	"ctx/config"
	"ctx/core"
	"ctx/ingest"
	"ctx/sources"
	"ctx/sources/aider"
	"ctx/sources/redact"
)

// Store is a scratch store built from the fixtures: the home the agents'
// files were placed in and the ctx home they were imported into.
type Store struct {
	Home    string // the user's home directory holding the agents' files
	CtxHome string // $CTX_HOME
	Events  int    // events indexed
}

// Build lays the fixtures out under dir/home and imports them into
// dir/store as `ctx import` does with the default configuration: every
// built-in provider discovered at its default path, secrets redacted, the
// built-in embedder's vectors built.
func Build(ctx context.Context, fixturesDir, dir string) (*Store, error) {
	home := filepath.Join(dir, "home")
	if err := Layout(fixturesDir, home); err != nil {
		return nil, err
	}
	return Import(ctx, home, filepath.Join(dir, "store"))
}

// Import imports the agents' files under home (laid out by Layout) into a
// new store at ctxHome, as Build does.
func Import(ctx context.Context, home, ctxHome string) (*Store, error) {
	s := &Store{Home: home, CtxHome: ctxHome}
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	cfg := config.DefaultSemantic()
	// Aider keeps its log in each repository; its automatic source is the
	// file its environment variable names.
	aiderLog := filepath.Join(s.Home, aiderPath)
	env := core.Env{Home: s.Home, Getenv: func(k string) string {
		if k == aider.HistoryFileEnv {
			return aiderLog
		}
		return ""
	}}
	rep, err := ingest.Run(ctx, ingest.Options{Home: s.CtxHome, Env: env, Sources: srcs,
		Version: "relevance", Redactor: redact.New(), Semantic: &cfg})
	if err != nil {
		return nil, fmt.Errorf("relevance: import: %w", err)
	}
	s.Events = rep.EventsIndexed
	return s, nil
}
