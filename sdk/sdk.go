package sdk

import (
	"context"
	"os"

	"ctx/app"
	"ctx/core"
	"ctx/query"
	"ctx/store"
)

// Read models and errors, re-exported so that callers need only this
// package. They are the app layer's: the CLI prints the same JSON and the
// MCP server returns it as structuredContent.
type (
	SearchRequest = app.SearchRequest
	SearchResult  = app.SearchResult
	// SemanticOptions configure the vector side of SearchWith.
	SemanticOptions = app.SemanticOptions
	ListRequest     = app.ListRequest
	// Filter selects events and sessions; FilterArgs parses one from strings.
	Filter             = core.Filter
	FilterArgs         = app.FilterArgs
	EventRangePage     = app.EventRangePage
	EventRow           = query.EventRow
	EventView          = app.EventView
	Pagination         = query.Pagination
	Completion         = query.Completion
	GenerationRef      = query.GenerationRef
	Status             = query.Status
	StatusReport       = app.StatusReport
	SourcesReport      = app.SourcesReport
	Transcript         = app.Transcript
	ShowSessionOptions = app.ShowSessionOptions
	Session            = core.Session
	Event              = core.Event
	Error              = query.Error
	Code               = app.Code
)

// CodeOf returns the stable code of err ("" when it has none).
func CodeOf(err error) Code { return app.CodeOf(err) }

// Client reads one ctx store. It holds no open files between calls, never
// imports or wakes the daemon, and is safe for concurrent use.
type Client struct {
	home string
	app  *app.App
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
	c := &Client{home: home}
	return c.WithEnv(env), nil
}

// DefaultHome is the store directory the CLI uses in env.
func DefaultHome(env core.Env) string { return store.Home(env.Get, env.Home) }

// WithEnv returns a client that discovers sources (Sources) and reads
// config.toml in env instead of the process's home and environment.
func (c *Client) WithEnv(env core.Env) *Client {
	return &Client{home: c.home, app: app.New(app.Options{Env: env, Home: c.home, NoWake: true})}
}

// Home returns the store directory.
func (c *Client) Home() string { return c.home }

// Search runs a search in the request's mode (lexical by default). Semantic
// and hybrid modes use the [semantic] table of the client's environment, as
// the CLI does; see SearchWith to choose the embedder.
func (c *Client) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	return c.app.Search(ctx, req)
}

// SearchWith runs a search with explicit semantic options: a configuration
// and, optionally, an embedder that replaces the configured one (the same
// embedder must have built the generation's vectors, or semantic search is
// unavailable).
func (c *Client) SearchWith(ctx context.Context, req SearchRequest, so SemanticOptions) (*SearchResult, error) {
	return c.app.SearchWith(ctx, req, so)
}

// ShowSession reads a session's events selected by mode: the complete
// stream when opts has neither Limit nor Cursor, else one page.
func (c *Client) ShowSession(ctx context.Context, id string, opts ShowSessionOptions) (*Transcript, error) {
	return c.app.ShowSession(ctx, id, opts)
}

// ListEvents returns one page of events (ctx list events, MCP
// query_events). Continue with the page's NextCursor and the same request.
func (c *Client) ListEvents(ctx context.Context, req ListRequest) (*EventRangePage, error) {
	return c.app.ListEvents(ctx, req)
}

// ShowEventOptions selects the events shown around an event.
type ShowEventOptions struct {
	Before, After int // 0..1000 each
}

// ShowEvent returns an event with its neighbours (ctx show event, MCP
// show_event).
func (c *Client) ShowEvent(ctx context.Context, id string, opts ShowEventOptions) (*EventView, error) {
	return c.app.ShowEvent(ctx, id, opts.Before, opts.After)
}

// Status returns the status read model (ctx status, MCP status), with the
// attribution observation of the repository around repo ("" observes
// none). A store with nothing imported has a nil Generation.
func (c *Client) Status(ctx context.Context, repo string) (*StatusReport, error) {
	return c.app.Status(ctx, repo)
}

// Sources lists the agent history sources the client's environment
// discovers (ctx sources, MCP sources), without reading any history.
func (c *Client) Sources(ctx context.Context) (*SourcesReport, error) {
	return c.app.Sources(ctx)
}
