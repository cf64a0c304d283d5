package query

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"ctx/core"
	"ctx/ingest"
	sharedfx "ctx/internal/fixtures"
	"ctx/sources"
)

// poolWorld is a store of the real fixtures imported with one Claude Code
// project held back; more publishes a new generation with it.
type poolWorld struct {
	home, store string
	projects    []string
}

func newPoolWorld(t *testing.T) *poolWorld {
	t.Helper()
	fx := fixturesDir(t)
	root := t.TempDir()
	w := &poolWorld{home: filepath.Join(root, "home"), store: filepath.Join(root, "store")}
	entries, err := os.ReadDir(filepath.Join(fx, "claude-code", "projects"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		w.projects = append(w.projects, e.Name())
	}
	sharedfx.Copy(t, filepath.Join(fx, "codex", "sessions"), filepath.Join(w.home, ".codex", "sessions"))
	w.more(t)
	return w
}

// more copies the next held-back project in and imports: one more
// generation, whose shards are the previous ones plus the new one.
func (w *poolWorld) more(t *testing.T) {
	t.Helper()
	if len(w.projects) == 0 {
		t.Fatal("no project left to import")
	}
	p := w.projects[0]
	w.projects = w.projects[1:]
	sharedfx.Copy(t, filepath.Join(fixturesDir(t), "claude-code", "projects", p), filepath.Join(w.home, ".claude", "projects", p))
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	env := core.Env{Home: w.home, Getenv: func(string) string { return "" }}
	if _, err := ingest.Run(context.Background(), ingest.Options{Home: w.store, Env: env, Sources: srcs, Version: "test"}); err != nil {
		t.Fatal(err)
	}
}

func shardNames(r *Reader) map[string]bool {
	out := map[string]bool{}
	for _, s := range r.gen.Shards {
		out[s.Name] = true
	}
	return out
}

// TestPoolRepins: calls on one generation share one Reader; a new
// generation is picked up by the next call; the old generation's Reader
// stays usable until its last call releases it, and then only the active
// generation's shards stay open.
func TestPoolRepins(t *testing.T) {
	w := newPoolWorld(t)
	p := NewPool(w.store)
	ctx := context.Background()
	r1, rel1, err := p.Acquire()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r1.Search(ctx, SearchRequest{Query: "test"}); err != nil {
		t.Fatal(err)
	}
	r1b, rel1b, err := p.Acquire()
	if err != nil || r1b != r1 {
		t.Fatalf("a second call on the same generation must share the Reader: %v", err)
	}
	rel1b()
	if got, want := p.OpenShards(), len(r1.gen.Shards); got != want {
		t.Fatalf("%d shards open, the generation has %d", got, want)
	}

	w.more(t)
	r2, rel2, err := p.Acquire()
	if err != nil {
		t.Fatal(err)
	}
	if r2 == r1 || r2.gen.Number <= r1.gen.Number {
		t.Fatalf("the pool did not re-pin: generation %d, was %d", r2.gen.Number, r1.gen.Number)
	}
	res, err := r2.Search(ctx, SearchRequest{Query: "test"})
	if err != nil || res.Generation.Number != r2.gen.Number {
		t.Fatalf("search on the new generation: %v", err)
	}
	union := shardNames(r1)
	for s := range shardNames(r2) {
		union[s] = true
	}
	if got := p.OpenShards(); got != len(union) {
		t.Fatalf("%d shards open while both generations are in use, want %d", got, len(union))
	}
	// The old Reader is still in use: it must still answer.
	if res, err := r1.Search(ctx, SearchRequest{Query: "test"}); err != nil || res.Generation.Number != r1.gen.Number {
		t.Fatalf("the old generation's reader failed while still acquired: %v", err)
	}
	rel1()
	rel1() // releasing twice is harmless
	if got, want := p.OpenShards(), len(r2.gen.Shards); got != want {
		t.Fatalf("%d shards open after the old generation was released, want %d", got, want)
	}
	rel2()
	if got, want := p.OpenShards(), len(r2.gen.Shards); got != want {
		t.Fatalf("the active generation's shards must stay open between calls: %d, want %d", got, want)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if n := p.OpenShards(); n != 0 {
		t.Fatalf("%d shards open after Close", n)
	}
}

// TestPoolConcurrent runs searches and show calls from many goroutines
// while new generations are published (run with -race): every call reads
// one consistent generation and none fails.
func TestPoolConcurrent(t *testing.T) {
	w := newPoolWorld(t)
	p := NewPool(w.store)
	defer p.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r, rel, err := p.Acquire()
				if err != nil {
					t.Error(err)
					return
				}
				res, err := r.Search(ctx, SearchRequest{Query: "test", Limit: 5})
				if err != nil || res.Generation.Number != r.gen.Number {
					t.Errorf("search: %v", err)
				}
				if err == nil && len(res.Results) > 0 {
					if _, err := r.ShowEvent(res.Results[0].CtxEventID, 2, 2); err != nil {
						t.Errorf("show_event of a hit of the same generation: %v", err)
					}
				}
				rel()
			}
		}()
	}
	for range 2 {
		w.more(t)
	}
	close(stop)
	wg.Wait()
	r, rel, err := p.Acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer rel()
	// The workers may have stopped before any searched the last
	// generation, whose Reader opens its shards on first use.
	if _, err := r.Search(ctx, SearchRequest{Query: "test", Limit: 5}); err != nil {
		t.Fatal(err)
	}
	if got, want := p.OpenShards(), len(r.gen.Shards); got != want {
		t.Fatalf("%d shards open at rest, the active generation has %d", got, want)
	}
}

// TestPoolNextGenerationStartsWarm: the Reader of the next generation a
// local import publishes starts with the chunk views the previous one
// decoded and knows, without reading the tree, that no session came from
// another machine; each shard the two generations share keeps its term
// counts. Its searches answer as a Reader opened afresh does.
func TestPoolNextGenerationStartsWarm(t *testing.T) {
	w := newPoolWorld(t)
	p := NewPool(w.store)
	defer p.Close()
	ctx := context.Background()
	queries := []string{"test", "error handling", "file", "function"}
	r1, rel1, err := p.Acquire()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queries {
		if _, err := r1.Search(ctx, SearchRequest{Query: q}); err != nil {
			t.Fatal(err)
		}
	}
	if !r1.noMachine.Load() || len(r1.views) == 0 {
		t.Fatalf("the first Reader read no tree (%v) or no chunk (%d views)", r1.noMachine.Load(), len(r1.views))
	}
	rel1()

	w.more(t)
	r2, rel2, err := p.Acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer rel2()
	if r2 == r1 {
		t.Fatal("no new generation")
	}
	for id := range r1.views {
		if r2.views[id] != r1.views[id] {
			t.Fatalf("chunk %s: the next generation's Reader does not start with the view", id)
		}
	}
	if !r2.noMachine.Load() {
		t.Fatal("the next generation of a local import does not know its tree names no machine")
	}
	fresh, err := Open(w.store)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	for _, q := range queries {
		got, err := r2.Search(ctx, SearchRequest{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Search(ctx, SearchRequest{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Results) == 0 || !sameHits(got, want) || got.Metadata.TotalMatches != want.Metadata.TotalMatches {
			t.Fatalf("%q: the warm Reader found %d hits (total %d), a fresh one %d (total %d)", q,
				len(got.Results), got.Metadata.TotalMatches, len(want.Results), want.Metadata.TotalMatches)
		}
	}
}

// sameHits reports whether two searches gave the same hits in the same
// order with the same scores.
func sameHits(a, b *SearchResult) bool {
	if len(a.Results) != len(b.Results) {
		return false
	}
	for i := range a.Results {
		x, y := a.Results[i], b.Results[i]
		if x.CtxEventID != y.CtxEventID || x.Score != y.Score || x.Machine != y.Machine {
			return false
		}
	}
	return true
}
