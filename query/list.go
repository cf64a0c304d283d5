package query

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"slices"
	"time"

	"ctx/core"
)

// List limits and projections.
const (
	DefaultPageLimit = 200  // events of a page when the request names no limit
	MaxPageLimit     = 4096 // largest page limit (spec 000)
	MaxFilterValues  = 1024 // values of one list filter

	OrderAsc  = "asc"
	OrderDesc = "desc"

	ContentFull = "full" // the whole event, activity and file edit bodies included
	ContentText = "text" // no activity, files without old/new text or patch
	ContentNone = "none" // metadata only: no text, command, activity or edit bodies
)

// ListRequest selects a page of events of the pinned generation (CLI
// ctx list events, MCP query_events). Filters of different kinds combine by
// AND, the values of one kind by OR; SourceRoots and SourceGroups form one
// OR set.
//
// Order: asc (the default) walks sessions by ctx_session_id and each
// session's events by ordinal; desc is the exact reverse. The order is
// deterministic and stable across pages; it is not chronological across
// sessions.
type ListRequest struct {
	Filter  core.Filter
	Scope   string // all|transcript|calls|outputs ("" = all); conflicts with Filter.Types
	Order   string // asc (default) | desc
	Content string // full (default) | text | none
	Limit   int    // default 200, 1..4096
	Cursor  string // opaque, from a previous page's NextCursor
	// MaxBytes, when positive, ends the page early once its compact JSON
	// would exceed it (the page is then truncated). An event that alone
	// exceeds it is listed in the page's Skipped, and the cursor steps past
	// it.
	MaxBytes int
}

// ListSelection echoes the resolved request of a page.
type ListSelection struct {
	Sessions     []string   `json:"sessions,omitempty"`
	RootSessions []string   `json:"root_sessions,omitempty"`
	Providers    []string   `json:"providers,omitempty"`
	SourceRoots  []string   `json:"source_roots,omitempty"`
	SourceGroups []string   `json:"source_groups,omitempty"`
	Roles        []string   `json:"roles,omitempty"`
	EventTypes   []string   `json:"event_types,omitempty"`
	Files        []string   `json:"files,omitempty"`
	ContentScope core.Scope `json:"content_scope"`
	Workspace    string     `json:"workspace,omitempty"`
	Since        *time.Time `json:"since,omitempty"`
	Until        *time.Time `json:"until,omitempty"`
	PrimaryOnly  bool       `json:"primary_only"`
	Machines     []string   `json:"machines,omitempty"`
	Order        string     `json:"order"`
	Content      string     `json:"content"`
	Limit        int        `json:"limit"`
}

// EventRow is one event of a page, projected by the request's content.
type EventRow struct {
	CtxEventID    string           `json:"ctx_event_id"`
	CtxSessionID  string           `json:"ctx_session_id"`
	RootSessionID string           `json:"root_session_id"`
	IsSubagent    bool             `json:"is_subagent"`
	Provider      string           `json:"provider"`
	Workspace     string           `json:"workspace,omitempty"`
	SourceRoot    string           `json:"source_root,omitempty"`
	SourceGroup   string           `json:"source_group,omitempty"`
	Machine       string           `json:"machine,omitempty"` // absent for this store's own
	Ordinal       int              `json:"ordinal"`
	Timestamp     time.Time        `json:"timestamp"`
	Role          string           `json:"role"`
	EventType     string           `json:"event_type"`
	Text          *string          `json:"text,omitempty"` // absent for content none
	Files         []core.FileTouch `json:"files,omitempty"`
	Command       string           `json:"command,omitempty"`
	ExitCode      *int             `json:"exit_code,omitempty"`
	IsError       bool             `json:"is_error,omitempty"`
	Tool          string           `json:"tool,omitempty"`
	CallID        string           `json:"call_id,omitempty"`
	Model         string           `json:"model,omitempty"`
	NativeType    string           `json:"native_type,omitempty"`
	Activity      *core.Activity   `json:"activity,omitempty"` // content full only
}

// PageUsage says how much of its limits a page used.
type PageUsage struct {
	Returned int `json:"returned"`
	Limit    int `json:"limit"`
	// Bytes is the size of the page's events array as compact JSON.
	Bytes int `json:"bytes"`
}

// Freshness says how current the pinned generation is.
type Freshness struct {
	GenerationNumber  uint64    `json:"generation_number"`
	GenerationCreated time.Time `json:"generation_created"`
	// Frontier is the newest modification time of the source files the
	// generation imported (absent when it imported none).
	Frontier *time.Time `json:"frontier,omitempty"`
	// Latest is whether the pinned generation was still the active one when
	// the page was read; false means a newer import exists.
	Latest bool `json:"latest"`
}

// EventRangePage is one page of ListEvents (kind "event_range_page").
type EventRangePage struct {
	Kind       string        `json:"kind"`
	Generation GenerationRef `json:"generation"`
	Selection  ListSelection `json:"selection"`
	Events     []EventRow    `json:"events"`
	Usage      PageUsage     `json:"usage"`
	Freshness  Freshness     `json:"freshness"`
	// Complete is true when no selected event remains after this page.
	Complete bool `json:"complete"`
	// Truncated is true when MaxBytes ended the page before its limit.
	Truncated bool `json:"truncated"`
	// Skipped are the selected events of this page's range that alone
	// exceed the byte budget: the cursor steps past them.
	Skipped    []SkippedEvent `json:"skipped,omitempty"`
	NextCursor string         `json:"next_cursor,omitempty"`
}

// KindEventRangePage is the kind of EventRangePage.
const KindEventRangePage = "event_range_page"

// listPlan is a validated, normalized request with its compiled filters.
type listPlan struct {
	sel      ListSelection
	sessions []core.SessionID // the session filter, sorted
	match    *core.Match      // the filter compiled, with the scope's types
	desc     bool
	limit    int
	maxBytes int
	binding  [sha256.Size]byte
}

// Validate checks the request and fills its defaults. Messages never echo
// rejected values.
func (req *ListRequest) Validate() error {
	_, err := req.plan()
	return err
}

func (req *ListRequest) plan() (*listPlan, error) {
	if err := req.validateShape(); err != nil {
		return nil, err
	}
	scope, _ := core.ParseScope(req.Scope)
	f := &req.Filter
	p := &listPlan{desc: req.Order == OrderDesc, limit: req.Limit, maxBytes: req.MaxBytes}
	p.sel = ListSelection{Sessions: normList(core.SessionIDStrings(f.Sessions)), RootSessions: normList(core.SessionIDStrings(f.RootSessions)),
		Providers: normList(f.Providers), SourceRoots: normList(f.SourceRoots),
		SourceGroups: normList(f.SourceGroups), Roles: normList(core.Strings(f.Roles)), EventTypes: normList(core.Strings(f.Types)),
		Files: normList(f.Files), ContentScope: scope, Workspace: f.Workspace, PrimaryOnly: f.PrimaryOnly,
		Machines: normList(f.Machines), Order: req.Order, Content: req.Content, Limit: req.Limit}
	if !f.Since.IsZero() {
		t := f.Since.UTC()
		p.sel.Since = &t
	}
	if !f.Until.IsZero() {
		t := f.Until.UTC()
		p.sel.Until = &t
	}
	p.compile(scope)
	bound := p.sel
	bound.Limit, bound.Content = 0, "" // neither changes which events are selected

	b, err := json.Marshal(bound)
	if err != nil {
		return nil, err
	}
	p.binding = bindingOf([]byte("list_events"), b)
	return p, nil
}

func (req *ListRequest) validateShape() error {
	if len(req.Filter.Types) > 0 && req.Scope != "" {
		return Errorf(CodeInvalidRequest, "event types and content scope cannot be combined: pass one or the other")
	}
	if _, err := core.ParseScope(req.Scope); err != nil {
		return Errorf(CodeInvalidRequest, "invalid content scope: want all, transcript, calls or outputs")
	}
	if err := CheckFilter(&req.Filter); err != nil {
		return err
	}
	return req.validatePaging()
}

func (req *ListRequest) validatePaging() error {
	if err := choose(&req.Order, "order", OrderAsc, OrderDesc); err != nil {
		return err
	}
	if err := choose(&req.Content, "content", ContentFull, ContentText, ContentNone); err != nil {
		return err
	}
	return checkPage(&req.Limit, req.MaxBytes)
}

// normList sorts and deduplicates an OR set (nil when empty).
func normList(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := slices.Clone(in)
	slices.Sort(out)
	return slices.Compact(out)
}

// compile sorts the session filter and compiles the normalized filter, the
// scope's types standing for its event types.
func (p *listPlan) compile(scope core.Scope) {
	s := &p.sel
	p.sessions, _ = sessionIDs(s.Sessions)
	roots, _ := sessionIDs(s.RootSessions)
	f := &core.Filter{Providers: s.Providers, Sessions: p.sessions, RootSessions: roots, SourceRoots: s.SourceRoots,
		SourceGroups: s.SourceGroups, Workspace: s.Workspace, Files: s.Files, PrimaryOnly: s.PrimaryOnly,
		Machines: s.Machines, Types: scope.Types()}
	for _, t := range s.EventTypes {
		f.Types = append(f.Types, core.EventType(t))
	}
	for _, r := range s.Roles {
		f.Roles = append(f.Roles, core.Role(r))
	}
	if s.Since != nil {
		f.Since = *s.Since
	}
	if s.Until != nil {
		f.Until = *s.Until
	}
	p.match = f.Compile()
}

// ListEvents returns one page of the events the request selects from the
// pinned generation. With a cursor the page continues exactly after the
// previous page's last event; the cursor carries the position, so a page
// deep into a long session costs what the first page costs.
func (r *Reader) ListEvents(ctx context.Context, req ListRequest) (*EventRangePage, error) {
	p, err := req.plan()
	if err != nil {
		return nil, err
	}
	if err := r.resolveSelectors(p.sel.SourceRoots, p.sel.SourceGroups); err != nil {
		return nil, err
	}
	tree, err := r.Tree()
	if err != nil {
		return nil, err
	}
	key := r.cursorKey()
	var start *cursorPos
	if req.Cursor != "" {
		c, err := checkCursor(req.Cursor, key, cursorListEvents, p.binding, r.id)
		if err != nil {
			return nil, err
		}
		if c.Session >= uint64(len(tree.Sessions)) || c.Ordinal >= uint64(tree.Sessions[c.Session].Events) {
			return nil, invalidCursor()
		}
		start = &c
	}
	page := &EventRangePage{Kind: KindEventRangePage, Generation: r.Ref(), Selection: p.sel,
		Events: []EventRow{}, Freshness: r.freshness()}
	if err := r.fillPage(ctx, p, tree, start, page, key); err != nil {
		return nil, err
	}
	return page, nil
}
