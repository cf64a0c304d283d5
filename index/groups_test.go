package index

import (
	"context"
	"fmt"
	"testing"
	"time"

	"ctx/core"
	"ctx/objects"
)

// inChunk puts docs in one chunk, in order, as a session's chunk holds
// its events.
func inChunk(name string, docs ...Doc) []Doc {
	id := objects.Hash([]byte("chunk " + name))
	for i := range docs {
		docs[i].Chunk, docs[i].Pos = id, i
	}
	return docs
}

// TestGroupsScoreEachEvent indexes chunks of several events, one document
// each, and checks that every answer is still about single events: all
// words in one event before words spread over a group, filters, excluded
// words and phrases per event, the newest first across groups, lookups.
func TestGroupsScoreEachEvent(t *testing.T) {
	s := newSession("groups")
	other := newSession("other")
	g1 := inChunk("g1",
		newDoc(s, "a", core.TypeMessage, "the alpha probe", at(t0), withRole(core.RoleUser)),
		newDoc(s, "b", core.TypeToolOutput, "beta probe output", at(t0.Add(2*time.Hour)), withRole(core.RoleTool),
			withFiles("/src/beta.go")),
		newDoc(s, "c", core.TypeMessage, "alpha beta together", at(t0.Add(time.Hour))),
		newDoc(s, "d", core.TypeReasoning, "nothing to see", at(t0.Add(4*time.Hour))))
	g2 := inChunk("g2",
		newDoc(other, "e", core.TypeMessage, "gamma probe", at(t0.Add(30*time.Minute))),
		newDoc(other, "f", core.TypeMessage, "gamma alpha", at(t0.Add(3*time.Hour))))
	docs := append(append([]Doc{}, g1...), g2...)
	root := t.TempDir()
	metas := build(t, root, docs, BuildOptions{Shards: 1})
	if metas[0].Docs != len(docs) {
		t.Fatalf("shard indexes %d events, want %d", metas[0].Docs, len(docs))
	}
	r, err := Open(root, names(metas), eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n, _ := r.Count(); n != 2 {
		t.Fatalf("%d documents, want one per chunk", n)
	}
	a, b, c, d, e, f := g1[0], g1[1], g1[2], g1[3], g2[0], g2[1]

	// Both words in one event come first; the events holding one follow.
	res, err := r.Search(context.Background(), Query{Text: "alpha beta"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Match != MatchAny || len(res.Hits) != 4 || res.Hits[0].EventID != c.Event.ID || res.Hits[0].Partial {
		t.Fatalf("alpha beta: %s %v", res.Match, describe(res.Hits))
	}
	for _, h := range res.Hits[1:] {
		if !h.Partial {
			t.Fatalf("a one-word event is not partial: %v", describe(res.Hits))
		}
	}
	tests := []struct {
		name string
		q    Query
		want []Doc
	}{
		{"word", Query{Text: "probe"}, []Doc{a, b, e}},
		{"phrase", Query{Text: `"alpha beta"`}, []Doc{c}},
		{"excluded word", Query{Text: "alpha -beta"}, []Doc{a, f}},
		{"role", Query{Text: "probe", Filter: core.Filter{Roles: []core.Role{core.RoleTool}}}, []Doc{b}},
		{"type", Query{Text: "alpha", Filter: core.Filter{Types: []core.EventType{core.TypeMessage}}}, []Doc{a, c, f}},
		{"type field", Query{Text: "probe type:tool_output"}, []Doc{b}},
		{"file", Query{Text: "probe", Filter: core.Filter{Files: []string{"beta.go"}}}, []Doc{b}},
		{"file word", Query{Text: "beta.go"}, []Doc{b}},
		{"time", Query{Text: "probe", Filter: core.Filter{Since: t0.Add(time.Hour), Until: t0.Add(3 * time.Hour)}}, []Doc{b}},
		{"scope", Query{Text: "probe", Scope: core.ScopeOutputs}, []Doc{b}},
		{"session", Query{Text: "alpha", Filter: core.Filter{Sessions: []core.SessionID{other.ID}}}, []Doc{f}},
		{"event id", Query{Text: c.Event.ID.String()}, []Doc{c}},
		{"no text", Query{Filter: core.Filter{Sessions: []core.SessionID{s.ID}, Roles: []core.Role{core.RoleUser}}}, []Doc{a}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameSet(t, find(t, r, tt.q), tt.want...)
		})
	}
	t.Run("newest first", func(t *testing.T) {
		// d (4h, in g1) and f (3h, in g2) are the newest of their groups.
		hits := find(t, r, Query{Limit: 2})
		sameSet(t, hits, d, f)
		hits = find(t, r, Query{Limit: 10, Filter: core.Filter{Sessions: []core.SessionID{s.ID}}})
		want := []core.EventID{d.Event.ID, b.Event.ID, c.Event.ID, a.Event.ID}
		if fmt.Sprint(ids(hits)) != fmt.Sprint(want) {
			t.Fatalf("order %v", describe(hits))
		}
	})
	t.Run("lookup", func(t *testing.T) {
		h, ok, err := r.Lookup(b.Event.ID)
		if err != nil || !ok || h.EventType != core.TypeToolOutput || h.Role != core.RoleTool ||
			!h.Timestamp.Equal(b.Event.Timestamp) || h.Chunk != b.Chunk {
			t.Fatalf("Lookup(b) = %+v %v %v", h, ok, err)
		}
	})
}

// TestInterleavedChunks feeds the events of many chunks interleaved, as
// concurrent importers do: each event is indexed once and found.
func TestInterleavedChunks(t *testing.T) {
	var chunks [][]Doc
	for i := range 40 {
		s := newSession(fmt.Sprintf("s%d", i))
		var docs []Doc
		for k := range 10 {
			docs = append(docs, newDoc(s, fmt.Sprint(k), core.TypeMessage, fmt.Sprintf("walrus %d in chunk %d", k, i)))
		}
		chunks = append(chunks, inChunk(fmt.Sprint(i), docs...))
	}
	var all []Doc
	for k := range 10 {
		for i := range chunks {
			all = append(all, chunks[i][k])
		}
	}
	root := t.TempDir()
	metas := build(t, root, all, BuildOptions{Shards: 2})
	events := 0
	for _, m := range metas {
		events += m.Docs
	}
	if events != len(all) {
		t.Fatalf("%d events indexed, want %d", events, len(all))
	}
	r, err := Open(root, names(metas), eventsOf(all))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sameSet(t, find(t, r, Query{Text: "walrus", Limit: 1000}), all...)
	for _, d := range []Doc{all[0], all[133], all[399]} {
		if _, ok, err := r.Lookup(d.Event.ID); !ok || err != nil {
			t.Fatalf("Lookup(%s): %v %v", d.Event.ID, ok, err)
		}
	}
}
