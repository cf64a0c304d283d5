package sdk

import (
	"context"
	"os"
	"path/filepath"

	"ctx/config"
	"ctx/core"
	"ctx/query"
	"ctx/sources"
)

// Read models and errors, re-exported so that callers need only this
// package.
type (
	SearchRequest = query.SearchRequest
	SearchResult  = query.SearchResult
	// SemanticOptions configure the vector side of SearchWith.
	SemanticOptions = query.SemanticOptions
	ListRequest     = query.ListRequest
	EventRangePage  = query.EventRangePage
	EventRow        = query.EventRow
	EventView       = query.EventView
	Pagination      = query.Pagination
	Completion      = query.Completion
	GenerationRef   = query.GenerationRef
	Status          = query.Status
	SourcesReport   = sources.Report
	Session         = core.Session
	Event           = core.Event
	Error           = query.Error
	Code            = query.Code
)

// CodeOf returns the stable code of err ("" when it has none).
func CodeOf(err error) Code { return query.CodeOf(err) }

// Client reads one ctx store. It holds no open files between calls and is
// safe for concurrent use.
type Client struct {
	home string
	env  core.Env
}

// Open returns a client of the store in home. An empty home resolves like
// the CLI: $CTX_HOME, else $XDG_DATA_HOME/ctx, else ~/.local/share/ctx.
// Open fails with no_generation when no store exists there; it creates
// nothing.
func Open(home string) (*Client, error) {
	env := core.Env{Getenv: os.Getenv}
	env.Home, _ = os.UserHomeDir()
	if home == "" {
		home = DefaultHome(env)
	}
	if fi, err := os.Stat(home); err != nil || !fi.IsDir() {
		return nil, query.Errorf(query.CodeNoHistory, "no ctx store at that path: run ctx import")
	}
	return &Client{home: home, env: env}, nil
}

// DefaultHome is the store directory the CLI uses in env.
func DefaultHome(env core.Env) string {
	if h := env.Get("CTX_HOME"); h != "" {
		return h
	}
	if x := env.Get("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "ctx")
	}
	return filepath.Join(env.Home, ".local", "share", "ctx")
}

// WithEnv returns a client that discovers sources (Sources) in env instead
// of the process's home directory and environment.
func (c *Client) WithEnv(env core.Env) *Client {
	cp := *c
	cp.env = env
	return &cp
}

// Home returns the store directory.
func (c *Client) Home() string { return c.home }

// read pins the active generation for one call.
func (c *Client) read(ctx context.Context, fn func(*query.Reader) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r, err := query.Open(c.home)
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r)
}

// Search runs a search in the request's mode (lexical by default; ctx
// search, MCP search). Semantic and hybrid modes use the [semantic] table of
// the client's environment, as the CLI does; see SearchWith to choose the
// embedder.
func (c *Client) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	so, err := query.ConfiguredSemantic(c.env, req.Mode)
	if err != nil {
		return nil, err
	}
	return c.SearchWith(ctx, req, so)
}

// SearchWith runs a search with explicit semantic options: a configuration
// and, optionally, an embedder that replaces the configured one (the same
// embedder must have built the generation's vectors, or semantic search is
// unavailable).
func (c *Client) SearchWith(ctx context.Context, req SearchRequest, so SemanticOptions) (*SearchResult, error) {
	var out *SearchResult
	err := c.read(ctx, func(r *query.Reader) (err error) {
		out, err = r.SearchWith(ctx, req, so)
		return err
	})
	return out, err
}

// ListEvents returns one page of events (ctx list events, MCP
// query_events). Continue with the page's NextCursor and the same request.
func (c *Client) ListEvents(ctx context.Context, req ListRequest) (*EventRangePage, error) {
	var out *EventRangePage
	err := c.read(ctx, func(r *query.Reader) (err error) {
		out, err = r.ListEvents(ctx, req)
		return err
	})
	return out, err
}

// ShowEventOptions selects the events shown around an event.
type ShowEventOptions struct {
	Before, After int // 0..1000 each
}

// ShowEvent returns an event with its neighbours (ctx show event, MCP
// show_event).
func (c *Client) ShowEvent(ctx context.Context, id string, opts ShowEventOptions) (*EventView, error) {
	var out *EventView
	err := c.read(ctx, func(r *query.Reader) (err error) {
		out, err = r.ShowEvent(id, opts.Before, opts.After)
		return err
	})
	return out, err
}

// Status returns the status read model (ctx status, MCP status), with the
// attribution observation of the repository around repo ("" observes
// none). A store with nothing imported has a nil Generation.
func (c *Client) Status(ctx context.Context, repo string) (*StatusReport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return ReadStatus(ctx, StatusOptions{Home: c.home, Env: c.env, Repo: repo})
}

// Sources lists the agent history sources the client's environment
// discovers (ctx sources, MCP sources), without reading any history.
func (c *Client) Sources(ctx context.Context) (*SourcesReport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg, err := config.Load(c.env)
	if err != nil {
		return nil, err
	}
	planned, err := sources.Plan(cfg, nil)
	if err != nil {
		return nil, err
	}
	return sources.Discover(c.env, cfg, planned, func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	}), nil
}
