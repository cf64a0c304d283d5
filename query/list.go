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
	Sessions, RootSessions []string // ses_… ids
	Providers              []string
	SourceRoots            []string
	SourceGroups           []string
	Roles                  []string
	EventTypes             []string
	Files                  []string // exact path or file name of a touched file
	Scope                  string   // all|transcript|calls|outputs ("" = all); conflicts with EventTypes
	Workspace              string   // the session's workspace is this directory or below it
	Since, Until           time.Time
	PrimaryOnly            bool
	Order                  string // asc (default) | desc
	Content                string // full (default) | text | none
	Limit                  int    // default 200, 1..4096
	Cursor                 string // opaque, from a previous page's NextCursor
	// MaxBytes, when positive, ends the page early once its compact JSON
	// would exceed it (the page is then truncated). At least one event is
	// returned, unless that event alone exceeds the budget:
	// output_limit_exceeded.
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
	Truncated  bool   `json:"truncated"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// KindEventRangePage is the kind of EventRangePage.
const KindEventRangePage = "event_range_page"

// listPlan is a validated, normalized request with its compiled filters.
type listPlan struct {
	sel      ListSelection
	sessions []core.SessionID
	roots    map[core.SessionID]bool
	types    map[core.EventType]bool
	roles    map[core.Role]bool
	files    map[string]bool
	provs    map[string]bool
	srcRoots map[string]bool
	srcGroup map[string]bool
	since    time.Time
	until    time.Time
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
	p := &listPlan{since: req.Since, until: req.Until, desc: req.Order == OrderDesc,
		limit: req.Limit, maxBytes: req.MaxBytes}
	p.sel = ListSelection{Sessions: normList(req.Sessions), RootSessions: normList(req.RootSessions),
		Providers: normList(req.Providers), SourceRoots: normList(req.SourceRoots),
		SourceGroups: normList(req.SourceGroups), Roles: normList(req.Roles), EventTypes: normList(req.EventTypes),
		Files: normList(req.Files), ContentScope: scope, Workspace: req.Workspace, PrimaryOnly: req.PrimaryOnly,
		Order: req.Order, Content: req.Content, Limit: req.Limit}
	if !req.Since.IsZero() {
		t := req.Since.UTC()
		p.sel.Since = &t
	}
	if !req.Until.IsZero() {
		t := req.Until.UTC()
		p.sel.Until = &t
	}
	p.compile(scope)
	bound := p.sel
	bound.Limit = 0
	b, err := json.Marshal(bound)
	if err != nil {
		return nil, err
	}
	p.binding = bindingOf([]byte("list_events"), b)
	return p, nil
}

func (req *ListRequest) validateShape() error {
	if len(req.EventTypes) > 0 && req.Scope != "" {
		return Errorf(CodeInvalidRequest, "event types and content scope cannot be combined: pass one or the other")
	}
	if _, err := core.ParseScope(req.Scope); err != nil {
		return Errorf(CodeInvalidRequest, "invalid content scope: want all, transcript, calls or outputs")
	}
	for _, l := range [][]string{req.Sessions, req.RootSessions, req.Providers, req.Roles, req.EventTypes, req.Files} {
		if len(l) > MaxFilterValues {
			return Errorf(CodeInvalidRequest, "at most %d values per filter", MaxFilterValues)
		}
	}
	for _, t := range req.EventTypes {
		if !knownType(t) {
			return Errorf(CodeInvalidRequest, "unknown event type (see ctx docs show event-types)")
		}
	}
	if err := validRoles(req.Roles); err != nil {
		return err
	}
	for _, id := range append(append([]string{}, req.Sessions...), req.RootSessions...) {
		if _, err := core.ParseSessionID(id); err != nil {
			return Errorf(CodeInvalidRequest, "a session filter is not a session id")
		}
	}
	if err := validSelectors(req.SourceRoots, req.SourceGroups); err != nil {
		return err
	}
	return req.validatePaging()
}

func (req *ListRequest) validatePaging() error {
	switch req.Order {
	case "":
		req.Order = OrderAsc
	case OrderAsc, OrderDesc:
	default:
		return Errorf(CodeInvalidRequest, "order must be asc or desc")
	}
	switch req.Content {
	case "":
		req.Content = ContentFull
	case ContentFull, ContentText, ContentNone:
	default:
		return Errorf(CodeInvalidRequest, "content must be full, text or none")
	}
	if req.Limit == 0 {
		req.Limit = DefaultPageLimit
	}
	if req.Limit < 1 || req.Limit > MaxPageLimit {
		return Errorf(CodeInvalidRequest, "limit must be between 1 and %d", MaxPageLimit)
	}
	if req.MaxBytes < 0 {
		return Errorf(CodeInvalidRequest, "max bytes must not be negative")
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && req.Until.Before(req.Since) {
		return Errorf(CodeInvalidRequest, "until is before since")
	}
	return nil
}

func validRoles(roles []string) error {
	for _, r := range roles {
		switch core.Role(r) {
		case core.RoleUser, core.RoleAssistant, core.RoleSystem, core.RoleTool:
		default:
			return Errorf(CodeInvalidRequest, "role must be user, assistant, system or tool")
		}
	}
	return nil
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

func setOf(in []string) map[string]bool {
	if len(in) == 0 {
		return nil
	}
	m := make(map[string]bool, len(in))
	for _, v := range in {
		m[v] = true
	}
	return m
}

func (p *listPlan) compile(scope core.Scope) {
	s := &p.sel
	for _, id := range s.Sessions {
		sid, _ := core.ParseSessionID(id)
		p.sessions = append(p.sessions, sid)
	}
	if len(s.RootSessions) > 0 {
		p.roots = map[core.SessionID]bool{}
		for _, id := range s.RootSessions {
			sid, _ := core.ParseSessionID(id)
			p.roots[sid] = true
		}
	}
	types := scope.Types()
	for _, t := range s.EventTypes {
		types = append(types, core.EventType(t))
	}
	if len(types) > 0 {
		p.types = map[core.EventType]bool{}
		for _, t := range types {
			p.types[t] = true
		}
	}
	if len(s.Roles) > 0 {
		p.roles = map[core.Role]bool{}
		for _, r := range s.Roles {
			p.roles[core.Role(r)] = true
		}
	}
	p.files, p.provs = setOf(s.Files), setOf(s.Providers)
	p.srcRoots, p.srcGroup = setOf(s.SourceRoots), setOf(s.SourceGroups)
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
