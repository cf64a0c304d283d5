package maint_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"ctx/internal/corpus"
	"ctx/maint"
	"ctx/query"
	"ctx/refs"
	ctxstore "ctx/store"
)

// imported generates a history of events events and imports it, and
// returns the history's home, the store and the history's files, sorted.
func imported(t *testing.T, events int, seed int64) (home, store string, files []string) {
	t.Helper()
	home, store = filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	if _, err := corpus.Generate(home, corpus.Options{Events: events, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	importAll(t, home, store)
	_ = filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
		if err == nil && filepath.Ext(p) == ".jsonl" {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return home, store, files
}

// TestGCThinsGenerations: generations published in the last ten minutes
// are all kept; two hours on, only the newest of their hour is, the log
// still chains, and the shards the expired ones listed are gone however
// new their directories, while a shard no generation listed (a merge's,
// not published yet) stays until it is ten minutes old.
func TestGCThinsGenerations(t *testing.T) {
	home, store, files := imported(t, 600, 7)
	// Ten appends: the ninth small shard makes the import merge them,
	// so the generations before it list shards the later ones do not.
	const appends = 10
	for i := range appends {
		if _, err := corpus.Append(files[i%len(files)], 20, int64(i)); err != nil {
			t.Fatal(err)
		}
		if rep := importAll(t, home, store); !rep.Published {
			t.Fatalf("append %d not published", i)
		}
	}
	ro, err := ctxstore.OpenReadOnly(store)
	if err != nil {
		t.Fatal(err)
	}
	log, err := ro.Refs.Log(refs.Active)
	if err != nil || len(log) != appends+1 {
		t.Fatalf("%d generations logged (%v)", len(log), err)
	}
	listed := func(entries []refs.LogEntry) map[string]bool {
		m := map[string]bool{}
		for _, e := range entries {
			g, err := refs.Load(ro.Objects, e.New)
			if err != nil {
				t.Fatal(err)
			}
			for _, sh := range g.Shards {
				m[sh.Name] = true
			}
		}
		return m
	}
	all := listed(log)
	idx := ctxstore.At(store).Index()
	stray := filepath.Join(idx, "stray-merge")
	if err := os.Mkdir(stray, 0o700); err != nil {
		t.Fatal(err)
	}

	// A gc whose context ended stops, and says so.
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := maint.GC(stopped, store, maint.GCOptions{Keep: 0, Now: time.Now().Add(time.Hour)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("gc of an ended context: %v", err)
	}
	rep, err := maint.GC(context.Background(), store, maint.GCOptions{Keep: 14 * 24 * time.Hour, Now: time.Now()})
	if err != nil || rep.KeptGenerations != len(log) || rep.ExpiredGenerations != 0 || rep.ShardsRemoved != 0 {
		t.Fatalf("gc now: %+v %v", rep, err)
	}

	// Two hours on, with every directory as new as then.
	later := time.Now().Add(2 * time.Hour)
	entries, _ := os.ReadDir(idx)
	for _, e := range entries {
		if err := os.Chtimes(filepath.Join(idx, e.Name()), later, later); err != nil {
			t.Fatal(err)
		}
	}
	rep, err = maint.GC(context.Background(), store, maint.GCOptions{Keep: 14 * 24 * time.Hour, Now: later})
	if err != nil {
		t.Fatal(err)
	}
	// One kept, or two when the generations straddle an hour.
	after, err := ro.Refs.Log(refs.Active)
	if err != nil || rep.KeptGenerations < 1 || rep.KeptGenerations > 2 || len(after) != rep.KeptGenerations ||
		rep.ExpiredGenerations != len(log)-rep.KeptGenerations || after[len(after)-1] != log[len(log)-1] || rep.ShardsRemoved == 0 {
		t.Fatalf("gc two hours on: %+v, log %d entries (%v)", rep, len(after), err)
	}
	kept := listed(after)
	if len(all) == len(kept) {
		t.Fatalf("no shard was listed by the expired generations only: %d shards", len(all))
	}
	entries, _ = os.ReadDir(idx)
	unlisted := 0
	for _, e := range entries {
		switch {
		case all[e.Name()] && !kept[e.Name()]:
			t.Errorf("shard %s left: listed by an expired generation only", e.Name())
		case !all[e.Name()]:
			unlisted++
		}
	}
	if unlisted != 1 {
		t.Fatalf("%d shard directories no generation listed, want the stray's one", unlisted)
	}
	if _, err := os.Stat(stray); err != nil {
		t.Fatalf("an unlisted shard of a minute ago was removed: %v", err)
	}
	v, err := maint.Verify(store)
	if err != nil || !v.OK || v.Generations != rep.KeptGenerations {
		t.Fatalf("verify after thinning: %+v %v", v, err)
	}
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := r.Search(context.Background(), query.SearchRequest{Query: "test"}); err != nil || len(res.Results) == 0 {
		t.Fatalf("search after thinning: %v", err)
	}
	r.Close()

	// Eleven minutes on, what no generation listed goes too.
	old := later.Add(-11 * time.Minute)
	for _, e := range entries {
		if !kept[e.Name()] {
			if err := os.Chtimes(filepath.Join(idx, e.Name()), old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if rep, err = maint.GC(context.Background(), store, maint.GCOptions{Keep: 14 * 24 * time.Hour, Now: later}); err != nil || rep.ShardsRemoved != unlisted {
		t.Fatalf("gc of %d unlisted shards eleven minutes old: %+v %v", unlisted, rep, err)
	}
	entries, _ = os.ReadDir(idx)
	for _, e := range entries {
		if !kept[e.Name()] {
			t.Errorf("%s is still there", e.Name())
		}
	}
}

// TestGCBesideImports: gc walks the kept generations without the writer
// lock, so imports publish while it walks; what they published must
// survive its sweep. gc runs in a loop, expiring all but the active
// generation, while an import after each append publishes; then verify
// finds every kept generation's objects and the index every event.
func TestGCBesideImports(t *testing.T) {
	home, store, files := imported(t, 3000, 9)
	// Deleting in rounds of three objects, with imports publishing
	// between the rounds.
	t.Cleanup(maint.SetSweepRound(3))
	done := make(chan struct{})
	gcs := make(chan int, 1)
	stop := sync.OnceValue(func() int { close(done); return <-gcs })
	t.Cleanup(func() { stop() })
	go func() {
		n := 0
		defer func() { gcs <- n }()
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := maint.GC(context.Background(), store, maint.GCOptions{Now: time.Now().Add(time.Hour), Busy: func() {}}); err != nil {
				t.Error(err)
				return
			}
			n++
		}
	}()
	// Every other step cuts a file back to what it held before its
	// append, so the next append writes the same lines again: the imports
	// then name objects an earlier import wrote, which gc may have found
	// unreached (an import names an object it finds present without
	// writing it).
	const appends = 12
	file := files[0]
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := range appends {
		if i%2 == 1 {
			if err := os.Truncate(file, fi.Size()); err != nil {
				t.Fatal(err)
			}
		} else if _, err := corpus.Append(file, 30, 50); err != nil {
			t.Fatal(err)
		}
		importAll(t, home, store)
	}
	if n := stop(); n == 0 {
		t.Fatal("no gc ran beside the imports")
	}
	v, err := maint.Verify(store)
	if err != nil || !v.OK {
		t.Fatalf("verify after gc beside imports: %+v %v", v, err)
	}
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st, err := query.ReadStatus(store)
	if err != nil {
		t.Fatal(err)
	}
	if st.Index.Docs < st.Generation.Events {
		t.Fatalf("index holds %d docs for %d events", st.Index.Docs, st.Generation.Events)
	}
}

// TestGCRoundsSeeWhatWasPublishedBetween: an import between two of gc's
// rounds of deletes names objects gc found unreached (a session back as
// it was, whose chunks an import finds present and does not write again);
// the next round walks that generation and keeps them.
func TestGCRoundsSeeWhatWasPublishedBetween(t *testing.T) {
	home, store, files := imported(t, 600, 4)
	file := files[0]
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	grow := func() {
		if _, err := corpus.Append(file, 40, 5); err != nil {
			t.Fatal(err)
		}
		importAll(t, home, store)
	}
	grow()
	if err := os.Truncate(file, fi.Size()); err != nil {
		t.Fatal(err)
	}
	importAll(t, home, store) // the grown session's objects are reached only by the generation before
	t.Cleanup(maint.SetSweepRound(1))
	once := sync.OnceFunc(grow)
	t.Cleanup(maint.BetweenRounds(once))
	if _, err := maint.GC(context.Background(), store, maint.GCOptions{Now: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	v, err := maint.Verify(store)
	if err != nil || !v.OK {
		t.Fatalf("verify after a gc with an import between its rounds: %+v %v", v, err)
	}
}
