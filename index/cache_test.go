package index

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"ctx/core"
)

// TestCacheSharesAndReleases opens two overlapping shard sets through one
// cache, as two generations do: the shared shard is opened once, a shard
// outside the kept set closes with its last Reader, and kept shards stay
// open between Readers.
func TestCacheSharesAndReleases(t *testing.T) {
	root := t.TempDir()
	s := newSession("cache")
	var shards []string
	var docs []Doc
	for _, text := range []string{"alpha shard", "beta shard", "gamma shard"} {
		d := newDoc(s, text, core.TypeMessage, text)
		docs = append(docs, d)
		shards = append(shards, names(build(t, root, []Doc{d}, BuildOptions{Shards: 1}))...)
	}
	c := NewCache(root, eventsOf(docs))
	old, err := c.Open(shards[:2])
	if err != nil {
		t.Fatal(err)
	}
	c.Keep(shards[:2])
	cur, err := c.Open(shards[1:])
	if err != nil {
		t.Fatal(err)
	}
	if n := c.Len(); n != 3 {
		t.Fatalf("%d shards open, want 3 (the shared one once)", n)
	}
	c.Keep(shards[1:]) // the next generation becomes active
	if n := c.Len(); n != 3 {
		t.Fatalf("%d open: a shard still held must stay open", n)
	}
	if hits := find(t, old, Query{Text: "alpha"}); len(hits) != 1 {
		t.Fatalf("the old reader must still search its shards: %d hits", len(hits))
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	_ = old.Close() // a second close releases nothing more
	if n := c.Len(); n != 2 {
		t.Fatalf("%d open after the old reader closed, want 2", n)
	}
	if hits := find(t, cur, Query{Text: "beta"}); len(hits) != 1 {
		t.Fatalf("the shared shard must still be open for the current reader: %d hits", len(hits))
	}
	cur.Close()
	if n := c.Len(); n != 2 {
		t.Fatalf("kept shards must stay open with no reader: %d", n)
	}
	again, err := c.Open(shards[1:])
	if err != nil {
		t.Fatal(err)
	}
	if hits := find(t, again, Query{Text: "gamma"}); len(hits) != 1 {
		t.Fatalf("a reopened reader finds %d", len(hits))
	}
	again.Close()
	c.Keep(nil)
	if n := c.Len(); n != 0 {
		t.Fatalf("%d open after Keep(nil) with no readers", n)
	}
	if _, err := c.Open([]string{shards[0], "0123456789abcdef0123456789abcdef"}); err == nil || c.Len() != 0 {
		t.Fatalf("a missing shard must fail and release the others: %v, %d open", err, c.Len())
	}
}

// TestCacheKeepsShardCounts: the document frequencies and event counts a
// Reader sums over its shards are remembered by each shard the cache
// holds, for the Readers of later generations, and give them what a Reader
// that counts everything afresh gives: the same frequencies, hits and
// scores.
func TestCacheKeepsShardCounts(t *testing.T) {
	root := t.TempDir()
	s := newSession("counts")
	var shards []string
	var docs []Doc
	for i, text := range []string{"alpha shard beta", "beta shard gamma", "gamma shard alpha beta"} {
		var batch []Doc
		for j := range 5 + 3*i {
			d := newDoc(s, fmt.Sprintf("%d-%d", i, j), core.TypeMessage, text)
			batch = append(batch, d)
		}
		docs = append(docs, batch...)
		shards = append(shards, names(build(t, root, batch, BuildOptions{Shards: 1}))...)
	}
	c := NewCache(root, eventsOf(docs))
	first, err := c.Open(shards[:2])
	if err != nil {
		t.Fatal(err)
	}
	c.Keep(shards[:2]) // the first generation is the active one
	find(t, first, Query{Text: "beta shard"})
	first.Close()
	if len(c.shards) != 2 {
		t.Fatalf("%d shards kept open, want 2", len(c.shards))
	}
	for _, cs := range c.shards {
		if _, ok := cs.counts.get("beta"); !ok && cs.name != shards[2] {
			t.Fatalf("shard %s does not remember the frequency of a searched term", cs.name)
		}
		if _, ok := cs.counts.get(eventTerm); !ok {
			t.Fatalf("shard %s does not remember its events", cs.name)
		}
	}
	next, err := c.Open(shards)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	fresh, err := Open(root, shards, eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if next.stats != fresh.stats {
		t.Fatalf("events counted %v, afresh %v", next.stats, fresh.stats)
	}
	for _, q := range []string{"beta shard", "alpha", "gamma beta", "shard"} {
		got, want := find(t, next, Query{Text: q}), find(t, fresh, Query{Text: q})
		if len(got) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: %v, afresh %v", q, got, want)
		}
	}
	a, b := next.newHitLoader(), fresh.newHitLoader()
	defer a.close()
	defer b.close()
	for _, term := range []string{"alpha", "beta", "gamma", "shard"} {
		if x, y := a.docFreq(term), b.docFreq(term); x != y || x == 0 {
			t.Fatalf("document frequency of %q: %d, afresh %d", term, x, y)
		}
	}
}

// TestCacheConcurrent opens and closes readers from many goroutines while
// the kept set changes (run with -race).
func TestCacheConcurrent(t *testing.T) {
	root := t.TempDir()
	s := newSession("conc")
	var shards []string
	var docs []Doc
	for _, text := range []string{"one", "two", "three", "four"} {
		d := newDoc(s, text, core.TypeMessage, text+" word")
		docs = append(docs, d)
		shards = append(shards, names(build(t, root, []Doc{d}, BuildOptions{Shards: 1}))...)
	}
	c := NewCache(root)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				set := shards[(g+i)%3 : (g+i)%3+2]
				r, err := c.Open(set, eventsOf(docs))
				if err != nil {
					t.Error(err)
					return
				}
				if res, err := r.Search(context.Background(), Query{Text: "word"}); err != nil || len(res.Hits) != 2 {
					t.Errorf("search over two shards: %v", err)
				}
				if i%5 == 0 {
					c.Keep(set)
				}
				r.Close()
			}
		}()
	}
	wg.Wait()
	c.Keep(nil)
	if n := c.Len(); n != 0 {
		t.Fatalf("%d shards left open", n)
	}
}
