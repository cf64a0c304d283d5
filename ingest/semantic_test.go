package ingest_test

import (
	"context"
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
