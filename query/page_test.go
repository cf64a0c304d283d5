package query

import (
	"encoding/json"
	"strings"
	"testing"

	"ctx/core"
)

// showAll pages through a session and returns the event ids, checking the
// pagination contract on every page.
func showAll(t *testing.T, r *Reader, req ShowSessionPageRequest) []string {
	t.Helper()
	var ids []string
	for {
		p, err := r.ShowSessionPage(req)
		if err != nil {
			t.Fatal(err)
		}
		pg := p.Pagination
		if p.Kind != KindSessionTranscript || pg.Returned != len(p.Events) || pg.Returned > pg.Limit ||
			pg.HasMore != (pg.NextCursor != "") || (req.MaxBytes == 0 && pg.HasMore && pg.Returned != pg.Limit) {
			t.Fatalf("page breaks the contract: %+v with %d events", pg, len(p.Events))
		}
		if req.MaxBytes > 0 {
			b, _ := json.Marshal(p)
			if len(b) > req.MaxBytes {
				t.Fatalf("page of %d bytes over a budget of %d", len(b), req.MaxBytes)
			}
		}
		for _, e := range p.Events {
			ids = append(ids, e.ID.String())
		}
		if !pg.HasMore {
			return ids
		}
		req.Cursor = pg.NextCursor
	}
}

// streamIDs is the complete CLI stream of a session in a mode.
func streamIDs(t *testing.T, r *Reader, id, mode string) []string {
	t.Helper()
	var ids []string
	_, err := r.ShowSession(ShowSessionRequest{ID: id, Mode: mode}, func(*SessionInfo) error { return nil },
		func(e *core.Event) error { ids = append(ids, e.ID.String()); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestShowSessionPagePaging(t *testing.T) {
	r := openReader(t, synthStore(t, 300, 10))
	tree, _ := r.Tree()
	for _, entry := range tree.Sessions {
		id := entry.Session.String()
		for _, mode := range []string{ModeTranscript, ModeLog} {
			want := streamIDs(t, r, id, mode)
			for _, limit := range []int{1, 2, 5, 64, 75, 150, 4096} {
				got := showAll(t, r, ShowSessionPageRequest{ID: id, Mode: mode, Limit: limit})
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("%s mode %s limit %d: %d events, want %d", id, mode, limit, len(got), len(want))
				}
			}
		}
	}
}

func TestShowSessionPageContract(t *testing.T) {
	r := openReader(t, synthStore(t, 300, 10))
	tree, _ := r.Tree()
	var big string
	for _, e := range tree.Sessions {
		if e.Events == 300 {
			big = e.Session.String()
		}
	}
	// Transcript mode selects 150 of 300: two full pages of 75, and the
	// second says no more (exact look-ahead, no empty third page).
	p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: big})
	if err != nil || p.Pagination.Limit != DefaultPageLimit || p.Pagination.Returned != 150 || p.Pagination.HasMore || p.Mode != ModeTranscript {
		t.Fatalf("default page: %+v %v", p.Pagination, err)
	}
	p1, _ := r.ShowSessionPage(ShowSessionPageRequest{ID: big, Limit: 75})
	p2, err := r.ShowSessionPage(ShowSessionPageRequest{ID: big, Limit: 75, Cursor: p1.Pagination.NextCursor})
	if err != nil || !p1.Pagination.HasMore || p2.Pagination.HasMore || p2.Pagination.Returned != 75 || p2.Pagination.NextCursor != "" {
		t.Fatalf("pages: %+v then %+v (%v)", p1.Pagination, p2.Pagination, err)
	}
	b, _ := json.Marshal(p2)
	if strings.Contains(string(b), "next_cursor") || !strings.Contains(string(b), `"has_more":false`) {
		t.Fatalf("last page JSON: %s", b[len(b)-80:])
	}
	for _, e := range p2.Events {
		if !InMode(ModeTranscript, &e) {
			t.Fatal("mode is applied before the limit")
		}
	}
	other := firstOther(tree, big)
	_, err = r.ShowSessionPage(ShowSessionPageRequest{ID: other, Limit: 75, Cursor: p1.Pagination.NextCursor})
	wantCode(t, err, CodeCursorMismatch)
	_, err = r.ShowSessionPage(ShowSessionPageRequest{ID: big, Mode: ModeLog, Limit: 75, Cursor: p1.Pagination.NextCursor})
	wantCode(t, err, CodeCursorMismatch)
	for _, bad := range []ShowSessionPageRequest{{ID: big, Limit: -1}, {ID: big, Limit: 4097}, {ID: big, Mode: "all"},
		{ID: " "}, {ID: big, MaxBytes: -1}} {
		_, err := r.ShowSessionPage(bad)
		wantCode(t, err, CodeInvalidRequest)
	}
	for _, missing := range []string{"ses_00000000000000000000000000000000", "ses_nope", "ses_0000"} {
		_, err = r.ShowSessionPage(ShowSessionPageRequest{ID: missing})
		wantCode(t, err, CodeNotFound)
	}
	// A unique prefix of the id names the session as the full id does.
	byPrefix, err := r.ShowSessionPage(ShowSessionPageRequest{ID: big[:16], Limit: 75})
	if err != nil || byPrefix.Session.ID.String() != big {
		t.Fatalf("prefix %s: %v", big[:16], err)
	}
	_, err = r.ShowSessionPage(ShowSessionPageRequest{ID: big, Cursor: "not a cursor"})
	wantCode(t, err, CodeInvalidCursor)
}

func firstOther(tree *core.Tree, not string) string {
	for _, e := range tree.Sessions {
		if e.Session.String() != not {
			return e.Session.String()
		}
	}
	return ""
}

func TestShowSessionPageMaxBytes(t *testing.T) {
	r := openReader(t, synthStore(t, 300, 10))
	tree, _ := r.Tree()
	id := tree.Sessions[0].Session.String()
	want := streamIDs(t, r, id, ModeLog)
	// Short pages that still cover the whole session exactly once.
	for _, budget := range []int{3000, 5000, 20000} {
		got := showAll(t, r, ShowSessionPageRequest{ID: id, Mode: ModeLog, Limit: 100, MaxBytes: budget})
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("budget %d: %d events, want %d", budget, len(got), len(want))
		}
	}
	p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: id, Mode: ModeLog, Limit: 100, MaxBytes: 5000})
	if err != nil || !p.Pagination.HasMore || p.Pagination.Returned == 0 || p.Pagination.Returned >= 100 {
		t.Fatalf("short page: %+v %v", p.Pagination, err)
	}
	// A budget that cannot hold even a skipped event's reference fails rather than clipping.
	_, err = r.ShowSessionPage(ShowSessionPageRequest{ID: id, Mode: ModeLog, MaxBytes: 1200})
	wantCode(t, err, CodeOutputLimit)
}

func TestShowSessionPageFrom(t *testing.T) {
	r := openReader(t, synthStore(t, 300, 10))
	tree, _ := r.Tree()
	var big string
	for _, e := range tree.Sessions {
		if e.Events == 300 {
			big = e.Session.String()
		}
	}
	all := streamIDs(t, r, big, ModeLog)
	for _, from := range []int{0, 1, 63, 64, 65, 200, 299} {
		p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: big, Mode: ModeLog, Limit: 10, From: from})
		if err != nil {
			t.Fatal(err)
		}
		if p.Events[0].Ordinal != from || p.Events[0].ID.String() != all[from] {
			t.Fatalf("from %d: page starts at ordinal %d", from, p.Events[0].Ordinal)
		}
	}
	// Transcript mode starts at the first selected event at or after from.
	p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: big, Limit: 5, From: 101})
	if err != nil || p.Events[0].Ordinal < 101 || !InMode(ModeTranscript, &p.Events[0]) {
		t.Fatalf("transcript from 101: %v %+v", err, p.Events[0])
	}
	for _, bad := range []ShowSessionPageRequest{{ID: big, From: -1}, {ID: big, From: 301}, {ID: big, From: 3, Cursor: "x"}} {
		_, err := r.ShowSessionPage(bad)
		wantCode(t, err, CodeInvalidRequest)
	}
}
