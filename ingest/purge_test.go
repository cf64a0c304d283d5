package ingest_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/maint"
)

// TestPurgeBesideImports forgets sessions and purges them while imports
// append to others (rewriting their tail chunks, so tombstones move while
// the purge re-indexes without the lock): the purge publishes, no event of
// the kept sessions is lost, duplicated or hidden, the forgotten ones are
// gone once gc has run, and the state kept for the next import is the
// published one.
func TestPurgeBesideImports(t *testing.T) {
	f := newFixture(t, 1500)
	opts := ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(), Version: "test",
		Semantic: &config.Semantic{Enabled: false}, Deferred: true, Busy: func() {}}
	if _, err := ingest.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	_, _, _, _, tree := activeTree(t, f.store)
	files := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")
	appended := map[string]bool{}
	for _, p := range files[:3] {
		appended[p] = true
	}
	var gone []core.SessionID // two sessions whose files the imports do not touch
	for _, e := range tree.Sessions {
		if len(gone) < 2 && !appended[e.SourceKey] && (e.Root.IsZero() || e.Root == e.Session) {
			gone = append(gone, e.Session)
		}
	}
	if len(gone) < 2 {
		t.Fatal("no session to forget")
	}
	if _, err := ingest.Forget(context.Background(), opts, ingest.ForgetRequest{Sessions: gone}); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() {
		n, err := ingest.Purge(context.Background(), opts)
		if err != nil {
			t.Error(err)
		}
		done <- n
	}()
	for i := range 4 {
		if _, err := corpus.Append(files[i%3], 7, int64(700+i)); err != nil {
			t.Fatal(err)
		}
		if _, err := ingest.Run(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
	}
	if n := <-done; n == 0 {
		t.Fatal("the purge published nothing")
	}
	assertNoDuplicateHits(t, f.store)
	assertEveryEventFindable(t, f.store)
	if kept, err := ingest.KeptStateMatches(f.store); err != nil || !kept {
		t.Fatalf("kept state after the purge and the imports: %v %v", kept, err)
	}
	if _, err := maint.GC(context.Background(), f.store, maint.GCOptions{Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	v, err := maint.Verify(f.store)
	if err != nil || !v.OK || v.Forgotten.Sessions != 2 || !v.Forgotten.Clean() {
		t.Fatalf("verify after the purge and gc: %+v %+v %v", v, v.Forgotten, err)
	}
	if g := keptGeneration(t, f.store); g == nil || g.Forgotten == nil {
		t.Fatal("the active generation names no forgotten set")
	}
}
