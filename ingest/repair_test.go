package ingest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/maint"
	"ctx/query"
	ctxstore "ctx/store"
)

// TestRepairRebuildsDamagedShards: every shard's root.bolt cut in half
// (search answers nothing, partial, naming each shard; verify names each); Repair rebuilds them from the
// objects, verify is ok and search answers what it did before the damage.
func TestRepairRebuildsDamagedShards(t *testing.T) {
	f := newFixture(t, 3000)
	f.importOnce(t)
	// a second build, so that a generation holds shards of two builds
	file := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")[0]
	if _, err := corpus.Append(file, 100, 9); err != nil {
		t.Fatal(err)
	}
	f.importOnce(t)
	before := searchIDs(t, f.store)
	gen := keptGeneration(t, f.store)
	builds := map[uint64]bool{}
	for _, s := range gen.Shards {
		builds[s.Generation] = true
	}
	if len(builds) < 2 {
		t.Fatalf("shards of %d builds, want 2", len(builds))
	}
	var names []string
	for _, s := range gen.Shards {
		names = append(names, s.Name)
		p := filepath.Join(ctxstore.At(f.store).Index(), s.Name, "store", "root.bolt")
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, fi.Size()/2); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := query.Open(f.store); err != nil {
		t.Fatal(err)
	} else {
		res, err := r.Search(context.Background(), query.SearchRequest{Query: "test"})
		r.Close()
		if err != nil || len(res.Results) != 0 || res.Metadata.Partial == nil || len(res.Metadata.Partial.DamagedShards) != len(names) {
			t.Fatalf("search over %d cut shards: %+v %v, want no results, partial naming each", len(names), res.Metadata, err)
		}
	}
	if v, err := maint.Verify(f.store); err != nil || v.OK || len(v.Damage) != len(names) {
		t.Fatalf("verify of %d cut shards: %+v %v", len(names), v, err)
	}
	rep, err := ingest.Repair(context.Background(), ingest.Options{Home: f.store, Env: f.env(), Version: "test"}, names)
	if err != nil || !rep.Published || rep.Generation.Number != gen.Number+1 {
		t.Fatalf("repair: %+v %v", rep, err)
	}
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify after repair: %+v %v", v, err)
	}
	if after := searchIDs(t, f.store); !slices.Equal(after, before) {
		t.Fatalf("search after repair: %d hits, before the damage %d", len(after), len(before))
	}
	assertNoDuplicateHits(t, f.store)
	// A name the generation does not list is refused.
	if _, err := ingest.Repair(context.Background(), ingest.Options{Home: f.store, Env: f.env(), Version: "test"},
		[]string{"0123"}); !errors.Is(err, ingest.ErrNotRepairable) {
		t.Fatalf("repair of an unknown shard: %v", err)
	}
}

func searchErr(store string) ([]string, error) {
	r, err := query.Open(store)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var ids []string
	for _, q := range []string{"test", "error", "file", "session"} {
		res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, h := range res.Results {
			ids = append(ids, q+" "+h.CtxEventID)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

func searchIDs(t *testing.T, store string) []string {
	t.Helper()
	ids, err := searchErr(store)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 {
		t.Fatal("the searches found nothing")
	}
	return ids
}
