package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/maint"
	"ctx/objects"
	"ctx/query"
	"ctx/refs"
	"ctx/sources"
	ctxstore "ctx/store"
)

type fixture struct {
	home, store string
}

func newFixture(t *testing.T, events int) *fixture {
	t.Helper()
	f := &fixture{home: filepath.Join(t.TempDir(), "home"), store: filepath.Join(t.TempDir(), "store")}
	if events > 0 {
		if _, err := corpus.Generate(f.home, corpus.Options{Events: events, Seed: 1}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) env() core.Env {
	return core.Env{Home: f.home, Getenv: func(string) string { return "" }}
}

func (f *fixture) importOnce(t *testing.T) *ingest.Report {
	t.Helper()
	rep, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(),
		Sources: automatic(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func (f *fixture) objectCount(t *testing.T) int {
	t.Helper()
	s, err := objects.Open(ctxstore.At(f.store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	_ = s.Walk(func(objects.ID) error { n++; return nil })
	return n
}

func historyFiles(t *testing.T, home, suffix string) []string {
	t.Helper()
	var out []string
	_ = filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, suffix) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestImportThenUnchangedWritesNothing(t *testing.T) {
	f := newFixture(t, 3000)
	rep := f.importOnce(t)
	if !rep.Published || rep.Generation.Number != 1 || rep.EventsRead < 2500 {
		t.Fatalf("first import: published=%v events=%d", rep.Published, rep.EventsRead)
	}
	if rep.EventsIndexed != rep.EventsRead {
		t.Fatalf("indexed %d of %d events", rep.EventsIndexed, rep.EventsRead)
	}
	before := f.objectCount(t)
	again := f.importOnce(t)
	if again.Published || again.FilesRead != 0 {
		t.Fatalf("unchanged re-import published=%v files read=%d", again.Published, again.FilesRead)
	}
	if after := f.objectCount(t); after != before {
		t.Fatalf("unchanged re-import wrote %d objects", after-before)
	}
	// Touching a file without changing it re-reads it once: the generation
	// that saves its new cursor shares everything else with the last one.
	file := historyFiles(t, f.home, ".jsonl")[0]
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	touched := f.importOnce(t)
	if !touched.Published || touched.FilesRead != 1 || touched.EventsIndexed != 0 {
		t.Fatalf("touched file: published=%v files read=%d indexed=%d", touched.Published, touched.FilesRead, touched.EventsIndexed)
	}
	if touched.Generation.Tree != rep.Generation.Tree || shardNames(touched.Generation) != shardNames(rep.Generation) {
		t.Fatal("touched re-import changed the tree or the shards")
	}
	if n := f.objectCount(t) - before; n != 2 {
		t.Fatalf("touched re-import wrote %d objects, want 2 (cursors, generation)", n)
	}
	if again := f.importOnce(t); again.Published || again.FilesRead != 0 {
		t.Fatalf("after the touch: published=%v files read=%d, want nothing read", again.Published, again.FilesRead)
	}
}

func shardNames(g *refs.Generation) string {
	var names []string
	for _, s := range g.Shards {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}

func TestAppendRewritesOnlyTail(t *testing.T) {
	f := newFixture(t, 3000)
	f.importOnce(t)
	before := f.objectCount(t)
	file := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")[0]
	added, err := corpus.Append(file, 100, 9)
	if err != nil || added < 90 {
		t.Fatalf("append: %d, %v", added, err)
	}
	rep := f.importOnce(t)
	if !rep.Published || rep.FilesRead != 1 || rep.Generation.Number != 2 {
		t.Fatalf("append import: published=%v files=%d", rep.Published, rep.FilesRead)
	}
	// New objects: the rewritten tail chunk plus the chunks of the added
	// events, the session, tree, cursors, tombstones and generation.
	maxNew := (100+core.ChunkSize-1)/core.ChunkSize + 1 + 5
	if n := f.objectCount(t) - before; n > maxNew || n < 5 {
		t.Fatalf("append wrote %d objects, want between 5 and %d", n, maxNew)
	}
	if rep.EventsIndexed > 100+2*core.ChunkSize {
		t.Fatalf("append re-indexed %d events", rep.EventsIndexed)
	}
	assertNoDuplicateHits(t, f.store)
	v, err := maint.Verify(f.store)
	if err != nil || !v.OK {
		t.Fatalf("verify after append: %+v %v", v, err)
	}
}

// assertNoDuplicateHits searches common words and checks that no event id
// comes back twice: re-indexed events must hide their older copies.
func assertNoDuplicateHits(t *testing.T, store string) {
	t.Helper()
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, q := range []string{"test", "error", "file", "session"} {
		res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, h := range res.Results {
			if seen[h.CtxEventID] {
				t.Fatalf("query %q returned %s twice", q, h.CtxEventID)
			}
			seen[h.CtxEventID] = true
		}
	}
}

func TestVanishedFileKeepsSessions(t *testing.T) {
	f := newFixture(t, 2000)
	first := f.importOnce(t)
	file := historyFiles(t, filepath.Join(f.home, ".codex"), ".jsonl")[0]
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	rep := f.importOnce(t)
	if !rep.Published {
		t.Fatal("a vanished file must be recorded in a new generation")
	}
	if rep.Generation.Sessions != first.Generation.Sessions || rep.Generation.Events != first.Generation.Events {
		t.Fatalf("sessions %d→%d, events %d→%d: history was lost", first.Generation.Sessions,
			rep.Generation.Sessions, first.Generation.Events, rep.Generation.Events)
	}
}

func TestBadInputIsCountedAndGoodRecordsKept(t *testing.T) {
	f := newFixture(t, 0)
	dir := filepath.Join(f.home, ".claude", "projects", "-work-demo")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	good := `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/work/demo","message":{"role":"user","content":"find the flakyWidget bug"}}`
	lines := []string{good, `{"type":"user",`, "\x00\x01binary\xff", `{"type":"brand-new-record","uuid":"x"}`,
		strings.Replace(good, "u1", "u2", 1), `{"type":"user","uuid":"u3","sessionId":"s1","message":{"role":"us`}
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := f.importOnce(t)
	if !rep.Published || rep.EventsRead < 3 {
		t.Fatalf("published=%v events=%d", rep.Published, rep.EventsRead)
	}
	st, err := query.ReadStatus(f.store)
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{core.ProblemInvalidJSON, core.ProblemBinaryLine, core.ProblemUnknownRecord, core.ProblemTornLine} {
		if st.Problems[code] != 1 {
			t.Errorf("problem %s counted %d times, want 1 (all: %v)", code, st.Problems[code], st.Problems)
		}
	}
	r, _ := query.Open(f.store)
	defer r.Close()
	res, err := r.Search(context.Background(), query.SearchRequest{Query: "flakyWidget"})
	if err != nil || len(res.Results) != 2 {
		t.Fatalf("good records not searchable: %v %v", res, err)
	}
}

func TestConcurrentImportsSerialize(t *testing.T) {
	f := newFixture(t, 2000)
	var wg sync.WaitGroup
	reps := make([]*ingest.Report, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			reps[i], errs[i] = ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(),
				Sources: automatic(), Version: "test", Busy: func() {}})
		}(i)
	}
	wg.Wait()
	published := 0
	for i := range 2 {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if reps[i].Published {
			published++
		}
	}
	if published != 1 {
		t.Fatalf("%d of two concurrent imports published, want exactly 1", published)
	}
	v, err := maint.Verify(f.store)
	if err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
	w, err := ctxstore.OpenWriter(context.Background(), f.store, nil)
	if err != nil {
		t.Fatalf("lock not released: %v", err)
	}
	w.Close()
}

func TestBusyWithoutWaiting(t *testing.T) {
	f := newFixture(t, 0)
	l, err := ctxstore.OpenWriter(context.Background(), f.store, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(), Sources: automatic()})
	if err != ctxstore.ErrBusy {
		t.Fatalf("got %v, want ErrBusy", err)
	}
}

func automatic() []core.Source {
	var out []core.Source
	for _, p := range sources.Builtin() {
		out = append(out, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	return out
}
