package semantic

import (
	"context"
	"errors"
	"os"
	"slices"
	"sort"
	"testing"

	"ctx/core"
	"ctx/objects"
)

var topics = []string{
	"the flaky TestRetryBackoff times out on CI",
	"parseConfig crashes on an empty config file",
	"run go test ./... and fix the failing build",
	"migrate the database schema and roll back on error",
}

// liveIDs lists the event ids of the live rows of an index, sorted.
func liveIDs(ix *Index) []string {
	var out []string
	for si, s := range ix.sets {
		for row := range s.Len() {
			if ix.dead[si] == nil || !ix.dead[si][row] {
				out = append(out, s.eventID(row).String())
			}
		}
	}
	sort.Strings(out)
	return out
}

// projectionIDs lists the event ids of the semantic projection of the
// sessions, sorted.
func projectionIDs(sessions ...*core.ParsedSession) []string {
	var out []string
	for _, ps := range sessions {
		for i := range ps.Events {
			if InProjection(&ps.Events[i]) {
				out = append(out, ps.Events[i].ID.String())
			}
		}
	}
	sort.Strings(out)
	return out
}

func buildGen(t testing.TB, ts *testStore, gen objects.ID, e Embedder, maxSets int) *BuildReport {
	t.Helper()
	rep, err := Build(context.Background(), BuildOptions{Dir: ts.vectors, Objects: ts.store, Generation: gen,
		Embedder: e, MaxSets: maxSets})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestBuildIncrementalEqualsFull(t *testing.T) {
	ts := newTestStore(t)
	a, b := chatSession("a", 150, topics), chatSession("b", 10, topics[1:])
	gen1 := ts.publish(t, a, b)
	h := NewHash(0)
	rep := buildGen(t, ts, gen1, h, 0)
	if !rep.Built || rep.Embedded != len(projectionIDs(a, b)) || rep.Vectors != rep.Embedded || rep.Reused != 0 {
		t.Fatalf("first build: %+v", rep)
	}
	if again := buildGen(t, ts, gen1, h, 0); again.Built || again.Vectors != rep.Vectors {
		t.Fatalf("second build of the same generation: %+v", again)
	}
	a2 := chatSession("a", 170, topics) // appends: the tail chunk (events 128–149) is rewritten
	gen2 := ts.publish(t, a2)
	rep2 := buildGen(t, ts, gen2, h, 0)
	if rep2.Reused != 1 || rep2.Chunks != 1 || rep2.Embedded != len(projectionIDs(a2))-64 {
		t.Fatalf("incremental build: %+v", rep2)
	}
	if got := liveIDs(openIndex(t, ts.vectors, gen2)); !slices.Equal(got, projectionIDs(a2, b)) {
		t.Fatalf("incremental: %d live rows, want %d", len(got), len(projectionIDs(a2, b)))
	}
	if got := liveIDs(openIndex(t, ts.vectors, gen1)); !slices.Equal(got, projectionIDs(a, b)) {
		t.Fatal("the first generation's vectors changed")
	}
	must(t, os.Remove(manifestPath(ts.vectors, gen1)))
	must(t, os.Remove(manifestPath(ts.vectors, gen2)))
	full := buildGen(t, ts, gen2, h, 0)
	if full.Reused != 0 || !slices.Equal(liveIDs(openIndex(t, ts.vectors, gen2)), projectionIDs(a2, b)) {
		t.Fatalf("full build: %+v", full)
	}
}

func TestBuildMergesSmallSets(t *testing.T) {
	ts := newTestStore(t)
	h := NewHash(64)
	var all []*core.ParsedSession
	var gen objects.ID
	for i := range 7 {
		s := chatSession(string(rune('a'+i)), 20+i, topics)
		all = append(all, s)
		gen = ts.publish(t, s)
		rep := buildGen(t, ts, gen, h, 3)
		if rep.Sets > 3 {
			t.Fatalf("generation %d: %d sets", i+1, rep.Sets)
		}
	}
	changed := chatSession("c", 90, topics) // rewrites a merged session
	all[2] = changed
	gen = ts.publish(t, changed)
	buildGen(t, ts, gen, h, 3)
	if got := liveIDs(openIndex(t, ts.vectors, gen)); !slices.Equal(got, projectionIDs(all...)) {
		t.Fatalf("%d live rows, want %d", len(got), len(projectionIDs(all...)))
	}
	// A live session growing by a few events a pass, as under the daemon.
	all = append(all, nil)
	for n := 10; n <= 200; n += 15 {
		all[len(all)-1] = chatSession("live", n, topics)
		gen = ts.publish(t, all[len(all)-1])
		if rep := buildGen(t, ts, gen, h, 3); rep.Sets > 3 || rep.Embedded > 15+core.ChunkSize {
			t.Fatalf("pass with %d events: %+v", n, rep)
		}
	}
	if got := liveIDs(openIndex(t, ts.vectors, gen)); !slices.Equal(got, projectionIDs(all...)) {
		t.Fatalf("%d live rows, want %d", len(got), len(projectionIDs(all...)))
	}
}

func TestBuildSearchFindsTheRelatedSession(t *testing.T) {
	ts := newTestStore(t)
	gen := ts.publish(t, chatSession("retry", 12, topics[:1]), chatSession("config", 12, topics[1:2]),
		chatSession("db", 12, topics[3:]))
	h := NewHash(0)
	buildGen(t, ts, gen, h, 0)
	ix := openIndex(t, ts.vectors, gen)
	q := embedOne(t, h, "ParseConfig empty file crash")
	res, err := ix.Search(context.Background(), q, nil, 3)
	if err != nil || len(res.Matches) != 3 {
		t.Fatal(res, err)
	}
	for _, m := range res.Matches {
		if m.SessionID != core.NewSessionID(core.ProviderClaude, "config") || m.EventType != core.TypeMessage {
			t.Fatalf("match from another session: %+v", m)
		}
	}
}

func TestBuildAnotherEmbedderRebuilds(t *testing.T) {
	ts := newTestStore(t)
	gen := ts.publish(t, chatSession("a", 30, topics))
	buildGen(t, ts, gen, NewHash(0), 0)
	rep := buildGen(t, ts, gen, NewHash(32), 0)
	m, err := LoadManifest(ts.vectors, gen)
	if err != nil || !rep.Built || m.Dim != 32 || !m.Compatible(NewHash(32)) || m.Compatible(NewHash(0)) {
		t.Fatalf("%+v %+v %v", rep, m, err)
	}
}

type failingEmbedder struct{ *Hash }

func (failingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("boom")
}

func TestBuildFailureLeavesNoSets(t *testing.T) {
	ts := newTestStore(t)
	gen := ts.publish(t, chatSession("a", 300, topics))
	_, err := Build(context.Background(), BuildOptions{Dir: ts.vectors, Objects: ts.store, Generation: gen,
		Embedder: failingEmbedder{NewHash(0)}})
	if err == nil {
		t.Fatal("no error")
	}
	entries, _ := os.ReadDir(ts.vectors)
	if len(entries) != 0 {
		t.Fatalf("left %d entries", len(entries))
	}
	if _, err := LoadManifest(ts.vectors, gen); !errors.Is(err, ErrNotBuilt) {
		t.Fatal(err)
	}
}

func TestSweep(t *testing.T) {
	ts := newTestStore(t)
	h := NewHash(16)
	gen1 := ts.publish(t, chatSession("a", 20, topics), chatSession("b", 20, topics))
	buildGen(t, ts, gen1, h, 0)
	gen2 := ts.publish(t, chatSession("a", 40, topics))
	buildGen(t, ts, gen2, h, 0)
	removed, err := Sweep(ts.vectors, []objects.ID{gen2})
	if err != nil || removed != 0 {
		t.Fatalf("gen2 still names gen1's set: removed %d, %v", removed, err)
	}
	if _, err := LoadManifest(ts.vectors, gen1); !errors.Is(err, ErrNotBuilt) {
		t.Fatal("gen1's manifest kept")
	}
	if removed, err := Sweep(ts.vectors, nil); err != nil || removed != 2 {
		t.Fatalf("removed %d, %v", removed, err)
	}
}

// Sets already full are never merged: merging them would write the same
// sets again on every build.
func TestBuildKeepsFullSets(t *testing.T) {
	ts := newTestStore(t)
	var all []*core.ParsedSession
	for i := range 6 {
		all = append(all, chatSession(string(rune('a'+i)), 12, topics))
	}
	gen := ts.publish(t, all...)
	rep, err := Build(context.Background(), BuildOptions{Dir: ts.vectors, Objects: ts.store, Generation: gen,
		Embedder: NewHash(64), MaxSets: 4, MaxSetRows: 1})
	must(t, err)
	if rep.Sets != 6 || rep.Merged != 0 {
		t.Fatalf("%d sets, %d merged; want the 6 full sets as built", rep.Sets, rep.Merged)
	}
	if got := liveIDs(openIndex(t, ts.vectors, gen)); !slices.Equal(got, projectionIDs(all...)) {
		t.Fatalf("%d live rows, want %d", len(got), len(projectionIDs(all...)))
	}
}
