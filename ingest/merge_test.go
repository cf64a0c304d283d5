package ingest_test

import (
	"context"
	"ctx/config"
	ctxstore "ctx/store"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/maint"
	"ctx/objects"
	"ctx/query"
	"ctx/refs"
	"ctx/semantic"
)

// Many small imports (what the daemon does) must not grow the shard count
// without bound, and merging must neither lose nor duplicate events.
func TestSmallImportsMergeShards(t *testing.T) {
	f := newFixture(t, 2000)
	f.importOnce(t)
	files := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")
	maxShards := 0
	for i := 0; i < 3*ingest.MaxSmallShards; i++ {
		if _, err := corpus.Append(files[i%len(files)], 20, int64(100+i)); err != nil {
			t.Fatal(err)
		}
		rep := f.importOnce(t)
		if !rep.Published {
			t.Fatalf("append %d not published", i)
		}
		if n := len(rep.Generation.Shards); n > maxShards {
			maxShards = n
		}
	}
	// The first import's two shards are small too (2,000 events), so every
	// shard takes part; the bound is the merge threshold plus one build.
	if maxShards > ingest.MaxSmallShards+2 {
		t.Fatalf("shard count reached %d", maxShards)
	}
	st, err := query.ReadStatus(f.store)
	if err != nil {
		t.Fatal(err)
	}
	if st.Index.Docs < st.Generation.Events {
		t.Fatalf("index holds %d docs for %d events: merging lost events", st.Index.Docs, st.Generation.Events)
	}
	assertNoDuplicateHits(t, f.store)
	assertEveryEventFindable(t, f.store)
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
	// Every shard directory is one a generation listed: an import that
	// merged the shard it built before publishing it removed it.
	ro, err := ctxstore.OpenReadOnly(f.store)
	if err != nil {
		t.Fatal(err)
	}
	log, err := ro.Refs.Log(refs.Active)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range log {
		g, err := refs.Load(ro.Objects, e.New)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range g.Shards {
			listed[sh.Name] = true
		}
	}
	dirs, _ := os.ReadDir(ctxstore.At(f.store).Index())
	for _, d := range dirs {
		if d.IsDir() && !listed[d.Name()] {
			t.Errorf("shard directory %s: no generation listed it", d.Name())
		}
	}
}

// assertEveryEventFindable looks up a sample of events by id through the
// index: each must be found (not lost by a merge, not hidden by a stale
// tombstone).
func assertEveryEventFindable(t *testing.T, store string) {
	t.Helper()
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	page, err := r.ListEvents(context.Background(), query.ListRequest{Limit: 4096, Content: "none"})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range page.Events {
		if i%7 != 0 {
			continue
		}
		if _, err := r.ShowEvent(e.CtxEventID, 0, 0); err != nil {
			t.Fatalf("event %s not findable after merges: %v", e.CtxEventID, err)
		}
	}
}

// TestDeferredMergingInIdleTime is the daemon's way: passes with Deferred
// publish without merging (up to HardMaxSmallShards) and without vectors;
// Maintain then merges the smallest shards and builds the vectors. A
// Maintain whose context ends publishes nothing, and the next one finishes.
// Events are neither lost nor duplicated at any step.
func TestDeferredMergingInIdleTime(t *testing.T) {
	f := newFixture(t, 1500)
	sem := &config.Semantic{Enabled: true, Embedder: config.EmbedderBuiltin, Weight: 0.5}
	opts := ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(), Version: "test", Semantic: sem, Deferred: true}
	run := func() *ingest.Report {
		t.Helper()
		rep, err := ingest.Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	first := run()
	if first.Vectors != nil || first.ShardsMerged != 0 {
		t.Fatalf("a deferred import built vectors or merged: %+v", first)
	}
	if _, err := semantic.LoadManifest(ctxstore.At(f.store).Vectors(), first.GenerationID); err == nil {
		t.Fatal("vectors exist before Maintain ran")
	}
	files := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")
	maxShards, sawUnmerged := 0, false
	for i := 0; i < ingest.HardMaxSmallShards+4; i++ {
		if _, err := corpus.Append(files[i%len(files)], 5, int64(300+i)); err != nil {
			t.Fatal(err)
		}
		rep := run()
		n := len(rep.Generation.Shards)
		maxShards = max(maxShards, n)
		sawUnmerged = sawUnmerged || n > ingest.MaxSmallShards
	}
	// The inline merge past the hard bound may have just run: grow again.
	for i := 0; len(activeGeneration(t, f.store).Shards) <= ingest.MaxSmallShards; i++ {
		if i > 2*ingest.MaxSmallShards {
			t.Fatal("the shard count does not grow")
		}
		if _, err := corpus.Append(files[i%len(files)], 5, int64(900+i)); err != nil {
			t.Fatal(err)
		}
		run()
	}
	if !sawUnmerged || maxShards > ingest.HardMaxSmallShards {
		t.Fatalf("deferred passes: at most %d shards (want more than %d, never more than %d)",
			maxShards, ingest.MaxSmallShards, ingest.HardMaxSmallShards)
	}
	assertNoDuplicateHits(t, f.store)

	before := activeGeneration(t, f.store)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ingest.Maintain(ctx, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted Maintain: %v, want context.Canceled", err)
	}
	if g := activeGeneration(t, f.store); g.Number != before.Number {
		t.Fatalf("an interrupted Maintain published generation %d", g.Number)
	}
	if before.Shards != nil && len(before.Shards) <= ingest.MaxSmallShards {
		t.Fatalf("nothing left to merge (%d shards): the test does not exercise Maintain", len(before.Shards))
	}

	rep, err := ingest.Maintain(context.Background(), opts)
	if err != nil || !rep.Published || rep.ShardsMerged == 0 || rep.Vectors == nil {
		t.Fatalf("Maintain: %+v, %v", rep, err)
	}
	after := activeGeneration(t, f.store)
	if len(after.Shards) > ingest.MaxSmallShards || after.Tree != before.Tree || after.Events != before.Events {
		t.Fatalf("after Maintain: %d shards, tree %v→%v, events %d→%d", len(after.Shards),
			before.Tree, after.Tree, before.Events, after.Events)
	}
	if _, err := semantic.LoadManifest(ctxstore.At(f.store).Vectors(), rep.GenerationID); err != nil {
		t.Fatalf("vectors of the maintained generation: %v", err)
	}
	st, err := query.ReadStatus(f.store)
	if err != nil || st.Index.Docs < st.Generation.Events {
		t.Fatalf("index holds %d docs for %d events after the merge (%v)", st.Index.Docs, st.Generation.Events, err)
	}
	assertNoDuplicateHits(t, f.store)
	assertEveryEventFindable(t, f.store)
	if again, err := ingest.Maintain(context.Background(), opts); err != nil || again.Published {
		t.Fatalf("Maintain with nothing owed: %+v, %v", again, err)
	}
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
}

func activeGeneration(t *testing.T, store string) *refs.Generation {
	t.Helper()
	rs, err := refs.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	id, err := rs.Get(refs.Active)
	if err != nil {
		t.Fatal(err)
	}
	s, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	g, err := refs.Load(s, id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMergeBesideImports runs Merge while imports append to the same
// sessions (rewriting their tail chunks, so tombstones move during the
// merge): whichever way they interleave, no event is lost, duplicated or
// hidden behind a stale copy.
func TestMergeBesideImports(t *testing.T) {
	f := newFixture(t, 1500)
	off := &config.Semantic{Enabled: false}
	opts := ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(), Version: "test", Semantic: off,
		Deferred: true, Busy: func() {}}
	if _, err := ingest.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	files := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")[:3]
	seed := int64(500)
	appendAndImport := func() {
		t.Helper()
		seed++
		if _, err := corpus.Append(files[int(seed)%len(files)], 7, seed); err != nil {
			t.Fatal(err)
		}
		if _, err := ingest.Run(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
	}
	merged := 0
	for round := 0; round < 4; round++ {
		for i := 0; i < ingest.MaxSmallShards; i++ {
			appendAndImport()
		}
		done := make(chan *ingest.Report, 1)
		go func() {
			rep, err := ingest.Merge(context.Background(), opts)
			if err != nil {
				t.Error(err)
			}
			done <- rep
		}()
		for i := 0; i < 3; i++ {
			appendAndImport()
		}
		if rep := <-done; rep != nil {
			merged += rep.ShardsMerged
		}
		assertNoDuplicateHits(t, f.store)
		assertEveryEventFindable(t, f.store)
	}
	if merged == 0 {
		t.Fatal("no merge published: the test exercised nothing")
	}
	st, err := query.ReadStatus(f.store)
	if err != nil || st.Index.Docs < st.Generation.Events {
		t.Fatalf("index holds %d docs for %d events (%v)", st.Index.Docs, st.Generation.Events, err)
	}
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
}

// TestPublishedStateIsKept: after an import publishes, and after the
// generations that only merge shards or add vectors, the state kept for
// the next import is what decoding the active generation gives; and the
// imports that start from it lose nothing.
func TestPublishedStateIsKept(t *testing.T) {
	f := newFixture(t, 1500)
	opts := ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(), Version: "test", Deferred: true}
	check := func(when string) {
		t.Helper()
		kept, err := ingest.KeptStateMatches(f.store)
		if err != nil || !kept {
			t.Fatalf("%s: kept %v, %v", when, kept, err)
		}
	}
	if _, err := ingest.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	check("after the first import")
	files := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")
	merges := 0
	for i := 0; i < ingest.HardMaxSmallShards+2; i++ {
		if _, err := corpus.Append(files[i%len(files)], 5, int64(500+i)); err != nil {
			t.Fatal(err)
		}
		rep, err := ingest.Run(context.Background(), opts)
		if err != nil || !rep.Published {
			t.Fatalf("append %d: %v", i, err)
		}
		check("after an append's import")
		m, err := ingest.Merge(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if m.Published {
			merges++
			check("after a merge")
		}
	}
	if merges == 0 {
		t.Fatal("no merge generation was published")
	}
	assertEveryEventFindable(t, f.store)
	assertNoDuplicateHits(t, f.store)
}
