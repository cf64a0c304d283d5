package index

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"ctx/core"
)

// TestTiesDoNotDependOnShards: many groups of equal score (the same output
// in many sessions, a minute apart) give the same hits at the limit
// whether they were built into one shard or spread over several by
// parallel writers, and from one search to the next.
func TestTiesDoNotDependOnShards(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var docs []Doc
	for i := range 400 {
		s := newSession(fmt.Sprintf("tie%03d", i))
		docs = append(docs, newDoc(s, "k", core.TypeToolOutput, "FAIL TestParseConfig unexpected zebrafish token",
			at(t0.Add(time.Duration(i%7)*time.Minute))))
	}
	search := func(r *Reader) []core.EventID {
		res, err := r.Search(context.Background(), Query{Text: "zebrafish", Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return ids(res.Hits)
	}
	want := search(openIndex(t, docs))
	if len(want) != 10 {
		t.Fatalf("%d hits", len(want))
	}
	for round := range 6 {
		root := t.TempDir()
		r, err := Open(root, names(build(t, root, docs, BuildOptions{Shards: 3})), eventsOf(docs))
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if got := search(r); !slices.Equal(got, want) {
				r.Close()
				t.Fatalf("round %d: three shards give\n%v\none gives\n%v", round, got, want)
			}
		}
		r.Close()
	}
}
