package app

import (
	"context"
	"os"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/query"
	"ctx/store"
	"ctx/wake"
)

// Options configure an App.
type Options struct {
	// Env is the environment ctx discovers history and reads config.toml
	// in; the process's own when Env.Getenv is nil.
	Env core.Env
	// Home is the store; "" resolves $CTX_HOME like the CLI (store.Home).
	Home string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Pooled keeps the active generation's Reader open across calls (a
	// long-running front end: the MCP server, the viewer).
	Pooled bool
	// Version is the importer version recorded in generations.
	Version string
	// KeepServing makes a config.toml that cannot be used fall back to the
	// defaults for reads instead of failing them (a server keeps answering;
	// status reports the config error).
	KeepServing bool
	// NoWake leaves the daemon alone: reads see the committed generation
	// as it is (the SDK, which never causes an import).
	NoWake bool
}

// App is the use cases over one store. It is safe for concurrent use.
type App struct {
	env     core.Env
	home    string
	now     func() time.Time
	version string
	pool    *query.Pool
	lenient bool
	noWake  bool
}

// New returns the use cases over the store opts names. It touches nothing.
func New(opts Options) *App {
	if opts.Env.Getenv == nil {
		opts.Env.Getenv = os.Getenv
		if opts.Env.Home == "" {
			opts.Env.Home, _ = os.UserHomeDir()
		}
	}
	if opts.Home == "" {
		opts.Home = store.Home(opts.Env.Get, opts.Env.Home)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	a := &App{env: opts.Env, home: opts.Home, now: opts.Now, version: opts.Version, lenient: opts.KeepServing,
		noWake: opts.NoWake}
	if opts.Pooled {
		a.pool = query.NewPool(opts.Home)
	}
	return a
}

// Home is the store's directory.
func (a *App) Home() string { return a.home }

// Env is the discovery environment.
func (a *App) Env() core.Env { return a.env }

// Now is the App's clock.
func (a *App) Now() time.Time { return a.now() }

// For returns the use cases over the same store and pooled Reader, seen
// from another environment: the ctx front's, for a command the daemon
// runs for it (config.toml and discovery read env).
func (a *App) For(env core.Env) *App {
	b := *a
	b.env = env
	return &b
}

// Close releases the pooled Reader, if any.
func (a *App) Close() error {
	if a.pool != nil {
		return a.pool.Close()
	}
	return nil
}

// WakeWait bounds the wake every fresh read sends the daemon, from the CLI
// and the MCP server alike.
const WakeWait = wake.DefaultWakeWait

// Wake sends the store's daemon the bounded, content-free wake (starting
// it when none runs and it is enabled), so the read that follows sees what
// the agents wrote a moment ago.
func (a *App) Wake() {
	if !a.noWake {
		wake.WakeBeforeRead(a.home, a.env, WakeWait)
	}
}

// errNoStore is the answer when the store does not exist: readers never
// create one.
func errNoStore() error {
	return query.Errorf(query.CodeNoHistory, "nothing has been imported yet: run ctx import")
}

// readValue is read for a read that answers one value.
func readValue[T any](ctx context.Context, a *App, fn func(*query.Reader) (T, error)) (T, error) {
	var out T
	err := a.read(ctx, func(r *query.Reader) (err error) {
		out, err = fn(r)
		return err
	})
	return out, err
}

// read pins the active generation for one call: the pooled Reader when the
// App keeps one, else a Reader opened and closed around fn.
func (a *App) read(ctx context.Context, fn func(*query.Reader) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !store.Exists(a.home) {
		return errNoStore()
	}
	if a.pool != nil {
		r, release, err := a.pool.Acquire()
		if err != nil {
			return err
		}
		defer release()
		return a.withSelectors(r, fn)
	}
	r, err := query.Open(a.home)
	if err != nil {
		return err
	}
	defer r.Close()
	return a.withSelectors(r, fn)
}

// withSelectors runs fn on r; when fn fails on a source root or group the
// generation does not know, it names the configuration's roots and groups
// to r and runs fn again: a root configured but without sessions yet (one
// `ctx sources` lists) selects nothing instead of failing. The config is
// read only then, so reads without such a selector never pay for it.
func (a *App) withSelectors(r *query.Reader, fn func(*query.Reader) error) error {
	err := fn(r)
	if !query.IsUnknownSelector(err) {
		return err
	}
	cfg, cerr := config.Load(a.env)
	if cerr != nil {
		return err
	}
	var roots, groups []string
	for _, s := range cfg.Sources {
		roots, groups = append(roots, s.Root), append(groups, s.Group)
	}
	if !r.SetConfiguredSelectors(roots, groups) {
		return err
	}
	return fn(r)
}

// Check pins the active generation once and releases it: the startup
// check of a long-running front end.
func (a *App) Check(ctx context.Context) error {
	return a.read(ctx, func(*query.Reader) error { return nil })
}

// Read pins the active generation for fn (the pooled Reader when the App
// keeps one): the read the spec 001 use cases go through.
func (a *App) Read(ctx context.Context, fn func(*query.Reader) error) error { return a.read(ctx, fn) }

// Handoff returns the spec 001 use cases over the App's store, reading
// through the App's pinned read and waking the daemon after a write.
func (a *App) Handoff(settings HandoffSettings) *Handoff {
	return NewHandoff(HandoffOptions{Home: a.home, Version: a.version, Now: a.now, Settings: settings,
		Read: a.Read, Wake: a.Wake, Getenv: a.env.Get})
}
