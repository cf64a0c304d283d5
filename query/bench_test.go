package query

import (
	"context"
	"testing"

	"ctx/core"
)

// BenchmarkListEventsDeepPage compares the first page of a 50,000-event
// session with a page at its end, for ListEvents and ShowSessionPage. The
// cursor carries the session index and ordinal, so the deep page seeks to
// its chunk and costs what the first page costs.
//
//	go test ./query/ -run '^$' -bench ListEventsDeepPage -benchmem
func BenchmarkListEventsDeepPage(b *testing.B) {
	home := synthStore(b, 50_000, 300, 20)
	r := openReader(b, home)
	tree, err := r.Tree()
	if err != nil {
		b.Fatal(err)
	}
	big := -1
	for i, e := range tree.Sessions {
		if e.Events == 50_000 {
			big = i
		}
	}
	id := tree.Sessions[big].Session.String()
	req := ListRequest{Limit: DefaultPageLimit, Filter: mustFilter(FilterArgs{Sessions: []string{id}})}
	p, err := req.plan()
	if err != nil {
		b.Fatal(err)
	}
	key := r.cursorKey()
	deep := encodeCursor(cursorPos{Kind: cursorListEvents, Gen: r.id, Binding: p.binding, Session: uint64(big), Ordinal: 49_700}, key)
	showBinding := bindingOf([]byte("show_session"), []byte(id), []byte(ModeLog))
	deepShow := encodeCursor(cursorPos{Kind: cursorShowSession, Gen: r.id, Binding: showBinding, Ordinal: 49_700}, key)
	ctx := context.Background()
	list := func(cursor string) func(*testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				req := req
				req.Cursor = cursor
				if p, err := r.ListEvents(ctx, req); err != nil || len(p.Events) == 0 {
					b.Fatal(err)
				}
			}
		}
	}
	show := func(cursor string) func(*testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: id, Mode: ModeLog, Cursor: cursor})
				if err != nil || len(p.Events) == 0 {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("list/first", list(""))
	b.Run("list/deep", list(deep))
	b.Run("list/all-sessions-first", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.ListEvents(ctx, ListRequest{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("show/first", show(""))
	b.Run("show/deep", show(deepShow))
	// The baseline a cursor avoids: reading the whole session to reach its end.
	b.Run("baseline/whole-session", func(b *testing.B) {
		for b.Loop() {
			so, err := r.loadSession(tree.Sessions[big])
			if err != nil {
				b.Fatal(err)
			}
			if _, err := core.LoadEvents(r.store, so); err != nil {
				b.Fatal(err)
			}
		}
	})
}
