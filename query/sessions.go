package query

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"ctx/core"
)

// Session list sorts and limits.
const (
	SortLastActivity = "last_activity" // newest activity first (the default)
	SortStarted      = "started"       // newest start first
	SortEvents       = "events"        // most events first
	SortName         = "name"          // by title, A to Z

	DefaultSessionsLimit = 50
	MaxSessionsLimit     = 1000
)

// KindSessionList is the kind of SessionList.
const KindSessionList = "session_list"

// SessionsRequest selects a page of sessions of the pinned generation (CLI
// ctx list sessions, MCP list_sessions).
type SessionsRequest struct {
	// Filter selects the sessions: its session-level fields, a time window
	// (sessions active in it) and Files (sessions that edited a file of
	// that path or file name); a session filter takes no event types,
	// roles or session ids.
	Filter  core.Filter
	Sort    string // last_activity (default), started, events, name
	Reverse bool   // the opposite order
	Limit   int    // default 50, 1..1000
	All     bool   // every selected session in one list (CLI only)
	Cursor  string
}

// FilterSelection echoes a resolved session filter.
type FilterSelection struct {
	Providers    []string   `json:"providers,omitempty"`
	SourceRoots  []string   `json:"source_roots,omitempty"`
	SourceGroups []string   `json:"source_groups,omitempty"`
	Files        []string   `json:"files,omitempty"`
	Workspace    string     `json:"workspace,omitempty"`
	Since        *time.Time `json:"since,omitempty"`
	Until        *time.Time `json:"until,omitempty"`
	PrimaryOnly  bool       `json:"primary_only"`
	Machines     []string   `json:"machines,omitempty"`
}

// SessionsSelection echoes a resolved SessionsRequest.
type SessionsSelection struct {
	FilterSelection
	Sort    string `json:"sort"`
	Reverse bool   `json:"reverse"`
	Limit   int    `json:"limit"`
}

// SessionRow is one session of a list: what a browser shows of it.
// Title is the agent's own title where it has one, else the first real
// user prompt (untrusted text). Times are absent when the agent recorded
// none.
type SessionRow struct {
	CtxSessionID    string     `json:"ctx_session_id"`
	ShortID         string     `json:"short_id"`
	Provider        string     `json:"provider"`
	NativeSessionID string     `json:"native_session_id"`
	RootSessionID   string     `json:"root_session_id"`
	ParentSessionID string     `json:"parent_session_id,omitempty"`
	IsSubagent      bool       `json:"is_subagent"`
	Workspace       string     `json:"workspace,omitempty"`
	SourceRoot      string     `json:"source_root,omitempty"`
	SourceGroup     string     `json:"source_group,omitempty"`
	Machine         string     `json:"machine,omitempty"` // absent for this store's own
	Title           string     `json:"title"`
	TitleSource     string     `json:"title_source,omitempty"`
	Started         *time.Time `json:"started,omitempty"`
	LastActivity    *time.Time `json:"last_activity,omitempty"`
	DurationSeconds int64      `json:"duration_seconds"`
	Activity
	Compactions int          `json:"compactions"`
	Subagents   int          `json:"subagents"`
	Models      []string     `json:"models"`
	Tokens      *core.Tokens `json:"tokens,omitempty"`
}

// SessionList is a page of sessions (kind "session_list").
type SessionList struct {
	Kind       string            `json:"kind"`
	Generation GenerationRef     `json:"generation"`
	Selection  SessionsSelection `json:"selection"`
	Sessions   []SessionRow      `json:"sessions"`
	// Total is the number of sessions the filters select, over all pages.
	Total      int    `json:"total"`
	Complete   bool   `json:"complete"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// ShortID is the short printable form of a session id: ses_ and 8 hex.
func ShortID(id core.SessionID) string { return id.String()[:12] }

func (req *SessionsRequest) validate() (*SessionsSelection, error) {
	if err := choose(&req.Sort, "sort", SortLastActivity, SortStarted, SortEvents, SortName); err != nil {
		return nil, err
	}
	if req.Limit == 0 {
		req.Limit = DefaultSessionsLimit
	}
	if req.Limit < 1 || req.Limit > MaxSessionsLimit {
		return nil, Errorf(CodeInvalidRequest, "limit must be between 1 and %d", MaxSessionsLimit)
	}
	if req.All && req.Cursor != "" {
		return nil, Errorf(CodeInvalidRequest, "a cursor continues a page: it cannot be combined with all")
	}
	fs, err := sessionSelection(&req.Filter)
	if err != nil {
		return nil, err
	}
	return &SessionsSelection{FilterSelection: *fs, Sort: req.Sort, Reverse: req.Reverse, Limit: req.Limit}, nil
}

// sessionSelection validates a session filter and echoes it.
func sessionSelection(f *core.Filter) (*FilterSelection, error) {
	if len(f.Types)+len(f.Roles)+len(f.Sessions)+len(f.RootSessions) > 0 {
		return nil, Errorf(CodeInvalidRequest, "a session filter takes no event types, roles or session ids")
	}
	if err := CheckFilter(f); err != nil {
		return nil, err
	}
	sel := &FilterSelection{Providers: normList(f.Providers), SourceRoots: normList(f.SourceRoots),
		SourceGroups: normList(f.SourceGroups), Files: normList(f.Files), Workspace: f.Workspace,
		PrimaryOnly: f.PrimaryOnly, Machines: normList(f.Machines)}
	if !f.Since.IsZero() {
		t := f.Since.UTC()
		sel.Since = &t
	}
	if !f.Until.IsZero() {
		t := f.Until.UTC()
		sel.Until = &t
	}
	return sel, nil
}

// selectSessions validates a session filter and selects its facts (see
// selectFacts), with the location days are read in (UTC for nil): the
// common start of the timeline and the stats.
func (r *Reader) selectSessions(f *core.Filter, loc *time.Location) (*FilterSelection, *time.Location, []*fact, []fact, error) {
	sel, err := sessionSelection(f)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if loc == nil {
		loc = time.UTC
	}
	kept, all, err := r.selectFacts(sel)
	return sel, loc, kept, all, err
}

// selectFacts returns the facts the selection keeps, in tree order, and
// every fact of the generation.
func (r *Reader) selectFacts(sel *FilterSelection) (kept []*fact, all []fact, err error) {
	if err := r.resolveSelectors(sel.SourceRoots, sel.SourceGroups); err != nil {
		return nil, nil, err
	}
	all, err = r.facts()
	if err != nil {
		return nil, nil, err
	}
	m := newSessionMatcher(sel)
	for i := range all {
		if ok, err := r.keepFact(m, &all[i]); err != nil {
			return nil, nil, err
		} else if ok {
			kept = append(kept, &all[i])
		}
	}
	return kept, all, nil
}

// ListSessions returns one page of the sessions the request selects, in
// its sort order (ties by session id). It reads the tree alone.
func (r *Reader) ListSessions(req SessionsRequest) (*SessionList, error) {
	sel, err := req.validate()
	if err != nil {
		return nil, err
	}
	kept, facts, err := r.selectFacts(&sel.FilterSelection)
	if err != nil {
		return nil, err
	}
	sortFacts(kept, sel.Sort, sel.Reverse)
	bound := *sel
	bound.Limit = 0
	b, err := json.Marshal(bound)
	if err != nil {
		return nil, err
	}
	binding := bindingOf([]byte("list_sessions"), b)
	from := 0
	if req.Cursor != "" {
		c, err := checkCursor(req.Cursor, r.cursorKey(), cursorListSessions, binding, r.id)
		if err != nil {
			return nil, err
		}
		if c.Session > uint64(len(kept)) {
			return nil, invalidCursor()
		}
		from = int(c.Session)
	}
	to := len(kept)
	if !req.All {
		to = min(to, from+sel.Limit)
	}
	subs := subagentCounts(facts)
	out := &SessionList{Kind: KindSessionList, Generation: r.Ref(), Selection: *sel, Sessions: []SessionRow{},
		Total: len(kept), Complete: to == len(kept)}
	for _, f := range kept[from:to] {
		out.Sessions = append(out.Sessions, f.row(subs[f.entry.Session]))
	}
	if !out.Complete {
		out.NextCursor = encodeCursor(cursorPos{Kind: cursorListSessions, Gen: r.id, Binding: binding,
			Session: uint64(to)}, r.cursorKey())
	}
	return out, nil
}

// subagentCounts counts each parent's subagent sessions.
func subagentCounts(facts []fact) map[core.SessionID]int {
	out := map[core.SessionID]int{}
	for i := range facts {
		if p := facts[i].parent(); !p.IsZero() {
			out[p]++
		}
	}
	return out
}

// sessionMatcher is a compiled session filter (shared with the timeline
// and stats).
type sessionMatcher struct {
	m *core.Match
}

func newSessionMatcher(sel *FilterSelection) *sessionMatcher {
	f := &core.Filter{Providers: sel.Providers, SourceRoots: sel.SourceRoots, SourceGroups: sel.SourceGroups,
		Files: sel.Files, Workspace: sel.Workspace, PrimaryOnly: sel.PrimaryOnly, Machines: sel.Machines}
	if sel.Since != nil {
		f.Since = *sel.Since
	}
	if sel.Until != nil {
		f.Until = *sel.Until
	}
	return &sessionMatcher{m: f.Compile()}
}

// keepFact applies the matcher; the file filter falls back to the
// session's events when its digest lists only some of its edited files.
func (r *Reader) keepFact(sm *sessionMatcher, f *fact) (bool, error) {
	d, m := f.digest, sm.m
	if !m.Provider(f.entry.Provider) || !m.Machine(f.entry.Machine) || !m.Primary(d.Subagent || !f.parent().IsZero()) ||
		!m.Source(d.SourceRoot, d.SourceGroup) || !m.Workspace(f.ws) || !m.Span(f.started, f.ended) {
		return false, nil
	}
	if !m.HasFiles() {
		return true, nil
	}
	for _, p := range d.Files {
		if m.File(p) {
			return true, nil
		}
	}
	if d.FilesComplete() {
		return false, nil
	}
	return r.editedIn(f, m)
}

// editedIn scans a session's events for an edit of one of the files.
func (r *Reader) editedIn(f *fact, m *core.Match) (bool, error) {
	so, err := r.loadSession(f.entry)
	if err != nil {
		return false, err
	}
	edited := false
	err = r.walkEvents(so, func(e *core.Event) bool {
		for _, t := range e.Files {
			if t.Op != core.OpRead && m.File(t.Path) {
				edited = true
			}
		}
		return !edited
	})
	return edited, err
}

func sortFacts(fs []*fact, by string, reverse bool) {
	cmp := func(a, b *fact) int {
		var c int
		switch by {
		case SortStarted:
			c = b.started.Compare(a.started)
		case SortEvents:
			c = b.entry.Events - a.entry.Events
		case SortName:
			c = strings.Compare(strings.ToLower(a.digest.Title), strings.ToLower(b.digest.Title))
		default:
			c = b.ended.Compare(a.ended)
		}
		if reverse {
			c = -c
		}
		if c == 0 {
			c = strings.Compare(string(a.entry.Session[:]), string(b.entry.Session[:]))
		}
		return c
	}
	slices.SortFunc(fs, cmp)
}

func (f *fact) row(subagents int) SessionRow {
	d, e := f.digest, &f.entry
	row := SessionRow{CtxSessionID: e.Session.String(), ShortID: ShortID(e.Session), Provider: e.Provider,
		NativeSessionID: d.NativeID, RootSessionID: f.root().String(), IsSubagent: d.Subagent || !f.parent().IsZero(),
		Workspace: f.ws, SourceRoot: d.SourceRoot, SourceGroup: d.SourceGroup, Machine: e.Machine, Title: d.Title,
		TitleSource: d.TitleSource, Activity: f.activity(), Compactions: d.Compactions,
		Subagents: subagents, Models: append([]string{}, d.Models...), Tokens: d.Tokens}
	if p := f.parent(); !p.IsZero() {
		row.ParentSessionID = p.String()
	}
	if !f.started.IsZero() {
		s, l := f.started.UTC(), f.ended.UTC()
		row.Started, row.LastActivity = &s, &l
		row.DurationSeconds = int64(l.Sub(s) / time.Second)
	}
	return row
}

// SessionRow returns the list row of one session.
func (r *Reader) SessionRow(id core.SessionID) (*SessionRow, error) {
	facts, err := r.facts()
	if err != nil {
		return nil, err
	}
	for i := range facts {
		if facts[i].entry.Session == id {
			row := facts[i].row(subagentCounts(facts)[id])
			return &row, nil
		}
	}
	return nil, Errorf(CodeNotFound, "no session with that id in generation %d", r.gen.Number)
}
