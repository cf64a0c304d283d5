package index

import (
	"context"
	"fmt"
	"testing"
	"time"

	"ctx/core"
	"ctx/objects"
)

// t0 is the base time of test events.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

type sessOpt func(*core.Session)

func inWorkspace(ws string) sessOpt { return func(s *core.Session) { s.Workspace = ws } }
func fromProvider(p string) sessOpt { return func(s *core.Session) { s.Provider = p } }
func fromSource(root, group string) sessOpt {
	return func(s *core.Session) { s.Source.Root, s.Source.Group = root, group }
}

// subagentOf makes the session a subagent whose root is parent's root.
func subagentOf(parent *core.Session) sessOpt {
	return func(s *core.Session) {
		s.IsSubagent, s.ParentSessionID, s.RootSessionID = true, parent.ID, parent.RootSessionID
	}
}

// newSession returns a primary session of provider core.ProviderClaude in /w.
func newSession(native string, opts ...sessOpt) *core.Session {
	s := &core.Session{Provider: core.ProviderClaude, NativeID: native, Workspace: "/w"}
	s.ID = core.NewSessionID(s.Provider, native)
	s.RootSessionID = s.ID
	for _, o := range opts {
		o(s)
	}
	return s
}

type evOpt func(*core.Event)

func at(ts time.Time) evOpt      { return func(e *core.Event) { e.Timestamp = ts } }
func withRole(r core.Role) evOpt { return func(e *core.Event) { e.Role = r } }
func withFiles(paths ...string) evOpt {
	return func(e *core.Event) {
		for _, p := range paths {
			e.Files = append(e.Files, core.FileTouch{Path: p, Op: "edit"})
		}
	}
}

// newDoc returns a doc for a new event of the session; the key names it.
func newDoc(s *core.Session, key string, typ core.EventType, text string, opts ...evOpt) Doc {
	e := &core.Event{ID: core.NewEventID(s.ID, key), SessionID: s.ID, Timestamp: t0,
		Role: core.RoleAssistant, Type: typ, Text: text}
	for _, o := range opts {
		o(e)
	}
	return Doc{Event: e, Session: s, Chunk: objects.Hash([]byte(s.ID.String() + "/" + key))}
}

// build indexes docs into root and fails the test on error.
func build(t testing.TB, root string, docs []Doc, opts BuildOptions) []ShardMeta {
	t.Helper()
	metas, err := BuildShards(context.Background(), root, feed(docs), opts)
	if err != nil {
		t.Fatalf("BuildShards: %v", err)
	}
	return metas
}

// feed returns a closed channel holding docs.
func feed(docs []Doc) <-chan Doc {
	ch := make(chan Doc, len(docs))
	for _, d := range docs {
		ch <- d
	}
	close(ch)
	return ch
}

func names(metas []ShardMeta) []string {
	out := make([]string, len(metas))
	for i, m := range metas {
		out[i] = m.Name
	}
	return out
}

// eventsOf reads chunks from docs, as a store would: each chunk's events
// at their positions.
func eventsOf(docs ...[]Doc) Option {
	chunks := map[objects.ID][]core.Event{}
	for _, list := range docs {
		for _, d := range list {
			c := chunks[d.Chunk]
			for len(c) <= d.Pos {
				c = append(c, core.Event{})
			}
			c[d.Pos] = *d.Event
			chunks[d.Chunk] = c
		}
	}
	return WithEvents(func(id objects.ID) ([]core.Event, error) {
		c, ok := chunks[id]
		if !ok {
			return nil, fmt.Errorf("no chunk %s", id)
		}
		return c, nil
	})
}

// openIndex builds docs into a fresh single shard and opens it.
func openIndex(t testing.TB, docs []Doc, opts ...Option) *Reader {
	t.Helper()
	root := t.TempDir()
	r, err := Open(root, names(build(t, root, docs, BuildOptions{Shards: 1})), append([]Option{eventsOf(docs)}, opts...)...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func find(t testing.TB, r *Reader, q Query) []core.Hit {
	t.Helper()
	res, err := r.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	return res.Hits
}

// ids returns the event ids of hits.
func ids(hits []core.Hit) []core.EventID {
	out := make([]core.EventID, len(hits))
	for i, h := range hits {
		out[i] = h.EventID
	}
	return out
}

// idSet returns the event ids of docs, for comparing unordered results.
func idSet(docs ...Doc) map[core.EventID]bool {
	out := make(map[core.EventID]bool, len(docs))
	for _, d := range docs {
		out[d.Event.ID] = true
	}
	return out
}

// sameSet fails unless hits are exactly the docs, in any order.
func sameSet(t testing.TB, hits []core.Hit, want ...Doc) {
	t.Helper()
	w := idSet(want...)
	got := make(map[core.EventID]bool)
	for _, h := range hits {
		got[h.EventID] = true
	}
	if len(got) != len(w) || len(hits) != len(w) {
		t.Fatalf("got %d hits %v, want %d", len(hits), describe(hits), len(w))
	}
	for id := range w {
		if !got[id] {
			t.Fatalf("missing %s in %v", id, describe(hits))
		}
	}
}

func describe(hits []core.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%s/%s/%.3f", h.EventID.String()[:12], h.EventType, h.Score)
	}
	return out
}
