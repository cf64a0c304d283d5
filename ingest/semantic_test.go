package ingest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"ctx/config"
	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/query"
	"ctx/semantic"
)

func (f *fixture) importWith(t *testing.T, sem *config.Semantic) *ingest.Report {
	t.Helper()
	rep, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(),
		Sources: automatic(), Version: "test", Semantic: sem})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// projection counts the events of the active generation that get vectors.
func projection(t *testing.T, store string) int {
	t.Helper()
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tree, err := r.Tree()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range tree.Sessions {
		so, err := core.LoadSession(r.Objects(), e.Object)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := core.LoadEvents(r.Objects(), so)
		if err != nil {
			t.Fatal(err)
		}
		for i := range evs {
			if semantic.InProjection(&evs[i]) {
				n++
			}
		}
	}
	return n
}

// TestSemanticPass: the import builds vectors after publishing, re-embeds
// only what changed, and builds them for the active generation when they
// are missing even though nothing else changed.
func TestSemanticPass(t *testing.T) {
	f := newFixture(t, 2000)
	off := &config.Semantic{Enabled: false, Weight: 0.5}
	if rep := f.importWith(t, off); rep.Vectors != nil || rep.VectorsErr != nil {
		t.Fatalf("semantic off built vectors: %+v %v", rep.Vectors, rep.VectorsErr)
	}
	rep := f.importWith(t, nil) // nothing changed, but vectors are missing: built now
	if rep.Published || rep.VectorsErr != nil || rep.Vectors == nil || !rep.Vectors.Built {
		t.Fatalf("catch-up: %+v %v", rep.Vectors, rep.VectorsErr)
	}
	if want := projection(t, f.store); rep.Vectors.Vectors != want || rep.Vectors.Embedded != want {
		t.Fatalf("%d vectors, %d embedded, want %d", rep.Vectors.Vectors, rep.Vectors.Embedded, want)
	}
	if again := f.importWith(t, nil); again.Vectors == nil || again.Vectors.Built {
		t.Fatalf("unchanged re-import rebuilt vectors: %+v", again.Vectors)
	}
	file := historyFiles(t, f.home+"/.claude", ".jsonl")[0]
	if _, err := corpus.Append(file, 50, 4); err != nil {
		t.Fatal(err)
	}
	rep = f.importWith(t, nil)
	if !rep.Published || rep.Vectors == nil || rep.Vectors.Reused == 0 || rep.Vectors.Embedded > 50+core.ChunkSize {
		t.Fatalf("append: %+v %v", rep.Vectors, rep.VectorsErr)
	}
	if want := projection(t, f.store); rep.Vectors.Vectors != want {
		t.Fatalf("%d vectors after append, want %d", rep.Vectors.Vectors, want)
	}
	r, err := query.Open(f.store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := r.Search(context.Background(), query.SearchRequest{Query: "retry the failing test", Mode: query.ModeHybrid})
	if err != nil || res.Metadata.Mode != query.ModeHybrid || len(res.Results) == 0 {
		t.Fatalf("hybrid after append: %+v %v", res, err)
	}
}

// TestImportEmbedsAsItWrites: a whole import's vector pass reads no chunk
// back, since the import embedded each as it wrote it, and the vectors
// answer as those a later pass builds from the store.
func TestImportEmbedsAsItWrites(t *testing.T) {
	f := newFixture(t, 3000)
	rep := f.importOnce(t)
	want := projection(t, f.store)
	if v := rep.Vectors; v == nil || v.Early == 0 || v.Chunks != 0 || v.Vectors != want {
		t.Fatalf("import: %+v %v (projection %d)", v, rep.VectorsErr, want)
	}
	later := &fixture{home: f.home, store: filepath.Join(t.TempDir(), "store")}
	opts := ingest.Options{Home: later.store, Env: later.env(), Sources: automatic(), Version: "test", Deferred: true}
	if _, err := ingest.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	v, err := ingest.BuildVectors(context.Background(), opts)
	if err != nil || v.Vectors == nil || v.Vectors.Early != 0 || v.Vectors.Chunks == 0 || v.Vectors.Vectors != want {
		t.Fatalf("the later pass: %+v %v", v, err)
	}
	hits := func(store, q string) []string {
		r, err := query.Open(store)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Mode: query.ModeSemantic, Limit: 20})
		if err != nil || len(res.Results) == 0 {
			t.Fatalf("%s in %s: %+v %v", q, store, res, err)
		}
		var out []string
		for _, h := range res.Results {
			out = append(out, fmt.Sprintf("%s %.9f", h.CtxEventID, h.Score))
		}
		return out
	}
	for _, q := range []string{"retry the failing test", "parseConfig error", "database migration rollback"} {
		if a, b := hits(f.store, q), hits(later.store, q); !slices.Equal(a, b) {
			t.Fatalf("%q: embedded early %v\nby the later pass %v", q, a, b)
		}
	}
}
