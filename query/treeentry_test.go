package query

import (
	"context"
	"slices"
	"testing"
	"time"

	"ctx/core"
)

// TestListEventsSkipsSessionsByTreeEntry: a time window or workspace that
// excludes a session by what its tree entry says never loads the session's
// object (here deleted, so loading it would fail), and the page holds what
// the window selects.
func TestListEventsSkipsSessionsByTreeEntry(t *testing.T) {
	store := fixtureStore(t, t.TempDir())
	r := openReader(t, store)
	tree, err := r.Tree()
	if err != nil {
		t.Fatal(err)
	}
	// The session that ended first; the window starts after it.
	first := -1
	for i, e := range tree.Sessions {
		if e.Started.IsZero() {
			continue
		}
		if first < 0 || e.Ended.Before(tree.Sessions[first].Ended) {
			first = i
		}
	}
	if first < 0 {
		t.Fatal("no entry carries a time range")
	}
	gone := tree.Sessions[first]
	since := gone.Ended.Add(time.Nanosecond)
	ids := func(r *Reader, req ListRequest) []string {
		t.Helper()
		var out []string
		for {
			page, err := r.ListEvents(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page.Events {
				out = append(out, e.CtxEventID)
			}
			if page.Complete {
				return out
			}
			req.Cursor = page.NextCursor
		}
	}
	req := ListRequest{Content: ContentNone, Limit: 100, Filter: mustFilter(FilterArgs{Since: since})}
	wantIDs := ids(r, req)
	if len(wantIDs) == 0 {
		t.Fatal("the window selects nothing")
	}
	r.Close()
	if err := r.Objects().Delete(gone.Object); err != nil {
		t.Fatal(err)
	}
	r = openReader(t, store)
	if got := ids(r, req); !slices.Equal(got, wantIDs) {
		t.Fatalf("after deleting a session outside the window: %d events, want %d", len(got), len(wantIDs))
	}
	// A workspace filter passes over it too (when the workspace differs).
	for _, e := range tree.Sessions {
		if e.Workspace != "" && e.Workspace != gone.Workspace && !(&core.Filter{Workspace: e.Workspace}).Compile().Workspace(gone.Workspace) {
			ids(r, ListRequest{Content: ContentNone, Limit: 100, Filter: mustFilter(FilterArgs{Workspace: e.Workspace})})
			break
		}
	}
	// Without the window the deleted object is read, and missed.
	if _, err := r.ListEvents(context.Background(), ListRequest{Filter: mustFilter(FilterArgs{Sessions: []string{gone.Session.String()}})}); err == nil {
		t.Fatal("the deleted session object was not needed: the test proves nothing")
	}
}

// TestKeepEntryOldTree: an entry of a tree written before entries carried
// the session's span is kept for the session object to decide.
func TestKeepEntryOldTree(t *testing.T) {
	req := ListRequest{Filter: mustFilter(FilterArgs{Since: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), Workspace: "/elsewhere"})}
	p, err := req.plan()
	if err != nil {
		t.Fatal(err)
	}
	old := core.TreeEntry{Provider: "codex", Events: 3}
	if !p.keepEntry(&old) {
		t.Fatal("an entry without span or workspace was dropped")
	}
	known := old
	known.Started = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	known.Ended = known.Started.Add(time.Hour)
	if p.keepEntry(&known) {
		t.Fatal("an entry that ended before the window was kept")
	}
	known.Started, known.Ended = req.Filter.Since, req.Filter.Since.Add(time.Hour)
	known.Workspace = "/repo"
	if p.keepEntry(&known) {
		t.Fatal("an entry outside the workspace was kept")
	}
	known.Workspace = "/elsewhere/sub"
	if !p.keepEntry(&known) {
		t.Fatal("an entry inside the window and workspace was dropped")
	}
}
