package ingest_test

import (
	"context"
	"path/filepath"
	"testing"

	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/maint"
	"ctx/query"
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
