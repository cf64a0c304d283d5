package query

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/core"
)

var (
	fixtureOnce sync.Once
	fixtureHome string
)

// fixtureReader opens the store of the real fixtures, imported once.
func fixtureReader(t *testing.T) *Reader {
	t.Helper()
	fixturesDir(t) // skips (before the once) when the fixtures are absent
	fixtureOnce.Do(func() {
		root, err := os.MkdirTemp("", "ctx-query-fixtures-")
		if err != nil {
			t.Fatal(err)
		}
		synthOnce.Store("fixtures", root) // removed by TestMain
		fixtureHome = fixtureStore(t, root)
	})
	return openReader(t, fixtureHome)
}

// want returns the ids of the events keep selects, in asc order.
func want(t *testing.T, r *Reader, keep func(s *core.Session, e *core.Event) bool) []string {
	t.Helper()
	var ids []string
	sessions := map[core.SessionID]*core.Session{}
	for _, e := range allEvents(t, r) {
		s := sessions[e.SessionID]
		if s == nil {
			so, err := r.Session(e.SessionID)
			if err != nil {
				t.Fatal(err)
			}
			s = &so.Session
			sessions[e.SessionID] = s
		}
		if keep(s, e) {
			ids = append(ids, e.ID.String())
		}
	}
	return ids
}

func TestListEventsPagingComplete(t *testing.T) {
	r := fixtureReader(t)
	all := want(t, r, func(*core.Session, *core.Event) bool { return true })
	if len(all) < 300 {
		t.Fatalf("only %d fixture events", len(all))
	}
	for _, limit := range []int{1, 7, 64, 200, 4096} {
		got := listAll(t, r, ListRequest{Limit: limit, Content: ContentNone})
		if !slices.Equal(got, all) {
			t.Fatalf("limit %d: %d events, want %d in order", limit, len(got), len(all))
		}
		rev := listAll(t, r, ListRequest{Limit: limit, Order: OrderDesc, Content: ContentNone})
		slices.Reverse(rev)
		if !slices.Equal(rev, all) {
			t.Fatalf("desc limit %d: not the reverse of asc", limit)
		}
	}
}

func TestListEventsFilters(t *testing.T) {
	r := fixtureReader(t)
	tree, _ := r.Tree()
	var sub *core.Session
	for _, e := range tree.Sessions {
		so, _ := r.Session(e.Session)
		if so.Session.IsSubagent {
			sub = &so.Session
		}
	}
	if sub == nil {
		t.Fatal("the fixtures have no subagent session")
	}
	since := time.Date(2026, 4, 18, 13, 30, 0, 0, time.UTC)
	until := time.Date(2026, 4, 18, 13, 40, 0, 0, time.UTC)
	cases := []struct {
		name string
		req  ListRequest
		keep func(*core.Session, *core.Event) bool
	}{
		{"session", ListRequest{Filter: mustFilter(FilterArgs{Sessions: []string{sub.ID.String(), sub.ID.String()}})},
			func(s *core.Session, _ *core.Event) bool { return s.ID == sub.ID }},
		{"root session", ListRequest{Filter: mustFilter(FilterArgs{RootSessions: []string{sub.RootSessionID.String()}})},
			func(s *core.Session, _ *core.Event) bool { return s.RootSessionID == sub.RootSessionID }},
		{"primary only", ListRequest{Filter: mustFilter(FilterArgs{PrimaryOnly: true})},
			func(s *core.Session, _ *core.Event) bool { return !s.IsSubagent }},
		{"provider", ListRequest{Filter: mustFilter(FilterArgs{Providers: []string{"codex"}})},
			func(s *core.Session, _ *core.Event) bool { return s.Provider == "codex" }},
		{"roles", ListRequest{Filter: mustFilter(FilterArgs{Roles: []string{"user", "tool"}})},
			func(_ *core.Session, e *core.Event) bool { return e.Role == core.RoleUser || e.Role == core.RoleTool }},
		{"types", ListRequest{Filter: mustFilter(FilterArgs{EventTypes: []string{"tool_call", "command_start"}})},
			func(_ *core.Session, e *core.Event) bool { return e.Type.Class() == core.ClassCall }},
		{"scope outputs", ListRequest{Scope: "outputs"},
			func(_ *core.Session, e *core.Event) bool { return e.Type.Class() == core.ClassOutput }},
		{"time", ListRequest{Filter: mustFilter(FilterArgs{Since: since, Until: until})}, func(_ *core.Session, e *core.Event) bool {
			return !e.Timestamp.IsZero() && !e.Timestamp.Before(since) && e.Timestamp.Before(until)
		}},
		{"workspace", ListRequest{Filter: mustFilter(FilterArgs{Workspace: sub.Workspace + "/"})},
			func(s *core.Session, _ *core.Event) bool { return s.Workspace == sub.Workspace }},
		{"and", ListRequest{Scope: "transcript", Filter: mustFilter(FilterArgs{Providers: []string{"claude-code"}, Roles: []string{"assistant"}})},
			func(s *core.Session, e *core.Event) bool {
				return s.Provider == "claude-code" && e.Role == core.RoleAssistant && e.Type.Class() == core.ClassMessage
			}},
	}
	for _, c := range cases {
		w := want(t, r, c.keep)
		if len(w) == 0 {
			t.Fatalf("%s: the fixtures select nothing", c.name)
		}
		c.req.Limit = 13
		if got := listAll(t, r, c.req); !slices.Equal(got, w) {
			t.Errorf("%s: %d events, want %d", c.name, len(got), len(w))
		}
	}
}

func TestListEventsFileFilter(t *testing.T) {
	r := fixtureReader(t)
	var path string
	for _, e := range allEvents(t, r) {
		if len(e.Files) > 0 && strings.Contains(e.Files[0].Path, "/") {
			path = e.Files[0].Path
			break
		}
	}
	if path == "" {
		t.Fatal("no fixture event touches a file")
	}
	touches := func(_ *core.Session, e *core.Event) bool {
		for _, f := range e.Files {
			if f.Path == path || core.FileName(f.Path) == core.FileName(path) {
				return true
			}
		}
		return false
	}
	if got, w := listAll(t, r, ListRequest{Filter: mustFilter(FilterArgs{Files: []string{core.FileName(path)}})}), want(t, r, touches); !slices.Equal(got, w) || len(w) == 0 {
		t.Fatalf("by file name: %d events, want %d", len(got), len(w))
	}
}

func TestListEventsContent(t *testing.T) {
	r := fixtureReader(t)
	ctx := context.Background()
	rows := map[string][]EventRow{}
	for _, c := range []string{ContentFull, ContentText, ContentNone} {
		p, err := r.ListEvents(ctx, ListRequest{Content: c, Limit: 4096, Filter: mustFilter(FilterArgs{EventTypes: []string{"tool_call"}})})
		if err != nil || len(p.Events) == 0 || p.Selection.Content != c {
			t.Fatalf("%s: %v", c, err)
		}
		rows[c] = p.Events
	}
	var edits, texts int
	for i, full := range rows[ContentFull] {
		text, none := rows[ContentText][i], rows[ContentNone][i]
		if full.Text == nil || text.Text == nil || none.Text != nil || none.Command != "" || text.Activity != nil || none.Activity != nil {
			t.Fatalf("projection of %s", full.CtxEventID)
		}
		if *full.Text != "" {
			texts++
		}
		for j, f := range full.Files {
			if f.OldText != "" || f.NewText != "" || f.Patch != "" {
				edits++
			}
			if text.Files[j] != (core.FileTouch{Path: f.Path, Op: f.Op, MovedTo: f.MovedTo}) || none.Files[j] != text.Files[j] {
				t.Fatalf("files of %s", full.CtxEventID)
			}
		}
	}
	if edits == 0 || texts == 0 {
		t.Fatalf("the fixtures have %d edit bodies and %d texts", edits, texts)
	}
	b, _ := json.Marshal(rows[ContentNone][0])
	if strings.Contains(string(b), `"text"`) {
		t.Fatalf("content none prints text: %s", b)
	}
}

func TestListEventsCursorBinding(t *testing.T) {
	r := fixtureReader(t)
	ctx := context.Background()
	req := ListRequest{Limit: 5, Filter: mustFilter(FilterArgs{Providers: []string{"claude-code", "codex"}})}
	p, err := r.ListEvents(ctx, req)
	if err != nil || p.NextCursor == "" || p.Complete || len(p.Events) != 5 {
		t.Fatalf("first page: %v", err)
	}
	// The same request spelled in another order, with another limit, continues.
	next := ListRequest{Limit: 9, Cursor: p.NextCursor, Filter: mustFilter(FilterArgs{Providers: []string{"codex", "claude-code", "codex"}})}
	if q, err := r.ListEvents(ctx, next); err != nil || q.Events[0].CtxEventID == p.Events[4].CtxEventID {
		t.Fatalf("continuation: %v", err)
	}
	// So does the same selection under another content projection: the
	// projection does not change which events are selected.
	next = ListRequest{Limit: 5, Cursor: p.NextCursor, Filter: req.Filter, Content: ContentNone}
	if q, err := r.ListEvents(ctx, next); err != nil || q.Events[0].CtxEventID == p.Events[4].CtxEventID {
		t.Fatalf("continuation under content none: %v", err)
	}
	withUser := req.Filter
	withUser.Roles = []core.Role{core.RoleUser}
	for _, other := range []ListRequest{{Limit: 5},
		{Filter: req.Filter, Order: OrderDesc}, {Filter: withUser}} {
		other.Cursor = p.NextCursor
		_, err := r.ListEvents(ctx, other)
		wantCode(t, err, CodeCursorMismatch)
	}
	// A show_session cursor is not a list cursor.
	sp, err := r.ShowSessionPage(ShowSessionPageRequest{ID: firstSession(t, r), Mode: ModeLog, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.ListEvents(ctx, ListRequest{Cursor: sp.Pagination.NextCursor})
	wantCode(t, err, CodeCursorMismatch)
}

func TestListEventsStale(t *testing.T) {
	home := t.TempDir()
	publishSynth(t, home, synthSession("a", 100), synthSession("b", 50))
	r := openReader(t, home)
	p, err := r.ListEvents(context.Background(), ListRequest{Limit: 10})
	if err != nil || p.NextCursor == "" || !p.Freshness.Latest {
		t.Fatalf("page: %+v %v", p.Freshness, err)
	}
	publishSynth(t, home, synthSession("a", 101), synthSession("b", 50))
	if q, err := r.ListEvents(context.Background(), ListRequest{Limit: 10, Cursor: p.NextCursor}); err != nil || q.Freshness.Latest {
		t.Fatalf("the pinned reader still continues, and says it is behind: %v", err)
	}
	_, err = openReader(t, home).ListEvents(context.Background(), ListRequest{Limit: 10, Cursor: p.NextCursor})
	wantCode(t, err, CodeCursorStale)
}

func TestListEventsValidation(t *testing.T) {
	r := fixtureReader(t)
	secret := "zz-secret-value-zz"
	type tc struct {
		req  ListRequest
		args FilterArgs
	}
	cases := []tc{{req: ListRequest{Scope: "calls"}, args: FilterArgs{EventTypes: []string{"message"}}},
		{req: ListRequest{Scope: secret}}, {args: FilterArgs{EventTypes: []string{secret}}},
		{args: FilterArgs{Roles: []string{secret}}}, {args: FilterArgs{Sessions: []string{secret}}},
		{args: FilterArgs{RootSessions: []string{secret}}}, {args: FilterArgs{SourceRoots: []string{secret + "!"}}},
		{args: FilterArgs{SourceGroups: []string{secret}}}, {req: ListRequest{Order: secret}},
		{req: ListRequest{Content: secret}}, {req: ListRequest{Limit: -1}}, {req: ListRequest{Limit: MaxPageLimit + 1}},
		{req: ListRequest{MaxBytes: -1}}, {args: FilterArgs{Since: time.Now(), Until: time.Now().Add(-time.Hour)}}}
	for _, c := range cases {
		f, err := c.args.Parse() // the edge parses, then the read model validates
		if err == nil {
			c.req.Filter = f
			_, err = r.ListEvents(context.Background(), c.req)
		}
		wantCode(t, err, CodeInvalidRequest)
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("the error echoes the value: %v", err)
		}
	}
}

func TestListEventsMaxBytes(t *testing.T) {
	r := fixtureReader(t)
	all := listAll(t, r, ListRequest{Limit: 4096, Content: ContentText})
	got := listAll(t, r, ListRequest{Limit: 4096, Content: ContentText, MaxBytes: 64 << 10})
	if !slices.Equal(got, all) {
		t.Fatalf("short pages: %d events, want %d", len(got), len(all))
	}
	p, err := r.ListEvents(context.Background(), ListRequest{Limit: 4096, MaxBytes: 16 << 10})
	if err != nil || !p.Truncated || p.Complete || p.NextCursor == "" {
		t.Fatalf("budgeted page: truncated %v complete %v (%v)", p.Truncated, p.Complete, err)
	}
	if b, _ := json.Marshal(p); len(b) > 16<<10 {
		t.Fatalf("page of %d bytes", len(b))
	}
	_, err = r.ListEvents(context.Background(), ListRequest{MaxBytes: 600})
	wantCode(t, err, CodeOutputLimit)
}
