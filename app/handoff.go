package app

import (
	"context"
	"sync"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/query"
	"ctx/sources/redact"
	"ctx/sources/reported"
	"ctx/threads"
	"ctx/workspace"
)

// HandoffSettings are the [context], [threads] and [ingest] settings of
// config.toml, resolved.
type HandoffSettings struct {
	TokenBudget     int           // get_context's budget
	CacheMaxAge     time.Duration // snapshots younger than this are served as is
	ThreadBudget    int           // continue_thread's default budget
	ThreadMaxBudget int           // and the most a call may ask for
	RatePerMinute   int           // reports per client per minute (0: unlimited)
	RateBurst       int
	Redaction       bool
	// Summary is the [context.summary] endpoint of sessionSummary; its
	// Endpoint "" leaves sessionSummary null and sends nothing anywhere.
	Summary config.Summary
}

// DefaultHandoffSettings are the settings when config.toml names none.
func DefaultHandoffSettings() HandoffSettings {
	return HandoffSettings{TokenBudget: workspace.DefaultTokenBudget, CacheMaxAge: workspace.DefaultCacheMaxAge,
		ThreadBudget: threads.DefaultBudget, ThreadMaxBudget: threads.MaxBudget,
		RatePerMinute: reported.DefaultPerMinute, RateBurst: reported.DefaultBurst, Redaction: true,
		Summary: config.Summary{Timeout: config.DefaultSummaryTimeout}}
}

// HandoffSettingsFrom resolves the [context], [threads] and [ingest]
// tables of cfg (nil: the defaults).
func HandoffSettingsFrom(cfg *config.Config) HandoffSettings {
	s := DefaultHandoffSettings()
	if cfg == nil {
		return s
	}
	h := cfg.HandoffConfig()
	s.TokenBudget, s.CacheMaxAge = h.TokenBudget, h.CacheMaxAge
	s.ThreadBudget, s.ThreadMaxBudget = h.ThreadBudget, h.ThreadMaxBudget
	s.RatePerMinute, s.RateBurst = h.RatePerMinute, h.Burst
	s.Redaction = cfg.RedactionEnabled()
	s.Summary = h.Summary
	return s
}

// HandoffOptions wire the context, threads and reports use cases.
type HandoffOptions struct {
	Home     string // $CTX_HOME
	Version  string
	Now      func() time.Time
	Settings HandoffSettings
	// Read runs fn with the active generation pinned for one call; it
	// returns a query.CodeNoHistory error when nothing was imported yet.
	Read func(ctx context.Context, fn func(*query.Reader) error) error
	// Wake asks the daemon for a pass without waiting for it (nil: none).
	Wake func()
	// Getenv reads the variable named by Settings.Summary.APIKeyEnv (nil:
	// no key is sent).
	Getenv func(string) string
}

// Handoff answers get_context, save_session, continue_thread, list_threads
// and ingest_context for every door, and the CLI commands of the same
// models.
type Handoff struct {
	opts     HandoffOptions
	inbox    *reported.Inbox
	threads  *threads.Registry
	cache    *workspace.Cache
	limiter  *reported.Limiter
	redactor reported.Redactor
	summary  workspace.SummarizeFunc // nil unless [context.summary] names an endpoint
	saveMu   sync.Mutex              // one save at a time per process: a thread is created once
}

// NewHandoff returns the use cases over opts.Home.
func NewHandoff(opts HandoffOptions) *Handoff {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &Handoff{opts: opts, inbox: reported.OpenInbox(opts.Home), threads: threads.Open(opts.Home),
		cache:   workspace.NewCache(opts.Settings.CacheMaxAge),
		limiter: reported.NewLimiter(opts.Settings.RatePerMinute, opts.Settings.RateBurst)}
	if opts.Settings.Redaction {
		h.redactor = redact.New()
	}
	h.summary = h.summarizer()
	return h
}

// Caller is who calls, as the door knows it: never taken from a payload.
type Caller struct {
	Door   string          // mcp-stdio, mcp-http or cli
	Client reported.Client // the MCP client's clientInfo, or the CLI
	Token  string          // the HTTP token's id
	Conn   string          // the identity of the conversation (an MCP session, a process)
	Root   string          // the served workspace
}

// limitKey is whom the rate limit counts: a token, else a client on a door.
func (c Caller) limitKey() string {
	if c.Token != "" {
		return "token:" + c.Token
	}
	return c.Door + ":" + c.Client.Name + ":" + c.Conn
}

func (h *Handoff) now() time.Time { return h.opts.Now().UTC() }

func (h *Handoff) wake() {
	if h.opts.Wake != nil {
		go h.opts.Wake()
	}
}

// withReader runs f with the pinned generation, or with nil when nothing
// was imported yet.
func (h *Handoff) withReader(f func(*query.Reader) error) error {
	if h.opts.Read == nil {
		return f(nil)
	}
	ran := false
	err := h.opts.Read(context.Background(), func(r *query.Reader) error {
		ran = true
		return f(r)
	})
	if !ran && query.CodeOf(err) == query.CodeNoHistory {
		return f(nil)
	}
	return err
}

// inTree reports whether the generation has the session.
func inTree(r *query.Reader, id core.SessionID) bool {
	if r == nil {
		return false
	}
	t, err := r.Tree()
	if err != nil {
		return false
	}
	_, ok := t.Find(id)
	return ok
}
