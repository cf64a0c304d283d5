package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// cutSegments truncates every segment file of a shard to nothing, under
// whatever holds them mapped.
func cutSegments(t *testing.T, root, shard string) {
	t.Helper()
	segs, err := filepath.Glob(filepath.Join(root, shard, "store", "*.zap"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("segments of %s: %v %v", shard, segs, err)
	}
	for _, p := range segs {
		if err := os.Truncate(p, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSegmentCutUnderOpenReader: a segment cut while a Reader holds its
// shard mapped makes the next search read pages that are gone. Without
// the fault guard that kills the process; with it the search answers
// from the other shard and names the cut one as damaged, and a lookup of
// an event of the cut shard is a typed error or a miss, never a crash.
func TestSegmentCutUnderOpenReader(t *testing.T) {
	root := t.TempDir()
	docs := manyDocs(300)
	metas := build(t, root, docs, BuildOptions{Shards: 2})
	if len(metas) != 2 {
		t.Fatalf("want 2 shards, got %d", len(metas))
	}
	r, err := Open(root, names(metas), eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	whole := find(t, r, Query{Text: "walrus", Limit: 500})
	if len(whole) != len(docs) {
		t.Fatalf("before the cut: %d hits, want %d", len(whole), len(docs))
	}

	cutSegments(t, root, metas[0].Name)
	res, err := r.Search(context.Background(), Query{Text: "walrus", Limit: 500})
	if err != nil {
		t.Fatalf("search after the cut: %v", err)
	}
	if !slices.Equal(res.Damaged, []string{metas[0].Name}) {
		t.Fatalf("damaged after the cut: %v, want %s", res.Damaged, metas[0].Name)
	}
	if len(res.Hits) == 0 || len(res.Hits) >= len(docs) {
		t.Fatalf("after the cut: %d hits, want those of the other shard only", len(res.Hits))
	}
	for _, h := range res.Hits {
		if h.Origin == metas[0].Name {
			t.Fatalf("a hit from the cut shard: %+v", h)
		}
	}
	if _, _, err := r.Lookup(whole[0].EventID); err != nil && !errors.Is(err, ErrShardDamaged) {
		t.Fatalf("lookup after the cut: %v", err)
	}
}

// TestCacheReopensAChangedShard: a cached shard whose file was cut since
// it was opened is not handed out again; the next Reader opens it anew,
// which reports it damaged (and leaves it out when asked to).
func TestCacheReopensAChangedShard(t *testing.T) {
	root := t.TempDir()
	docs := manyDocs(300)
	metas := build(t, root, docs, BuildOptions{Shards: 2})
	c := NewCache(root)
	defer c.Close()
	c.Keep(names(metas))
	r, err := c.Open(names(metas), eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(find(t, r, Query{Text: "walrus", Limit: 500})); n != len(docs) {
		t.Fatalf("before the cut: %d hits", n)
	}
	r.Close()

	cutSegments(t, root, metas[1].Name)
	_, err = c.Open(names(metas), eventsOf(docs))
	var se *ShardError
	if !errors.Is(err, ErrShardDamaged) || !errors.As(err, &se) || se.Shard != metas[1].Name {
		t.Fatalf("open after the cut: %v, want the cut shard damaged", err)
	}
	r, err = c.Open(names(metas), eventsOf(docs), SkipDamaged())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if d := r.Damaged(); len(d) != 1 || d[0].Shard != metas[1].Name || !errors.Is(d[0], ErrShardDamaged) {
		t.Fatalf("skipped at open: %v", d)
	}
	if n := len(find(t, r, Query{Text: "walrus", Limit: 500})); n == 0 || n >= len(docs) {
		t.Fatalf("after the cut: %d hits, want those of the other shard only", n)
	}
}
