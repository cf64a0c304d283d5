package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/ingest"
	"ctx/objects"
	"ctx/query"
	ctxstore "ctx/store"
)

// TestMergesDropTombstones runs the daemon's way over one session that an
// agent keeps rewriting at its end: each pass rewrites the tail chunk (its
// events get tombstones), the last record is sometimes replaced by another
// version of itself and sometimes removed, and a merge follows each pass.
// The first pass removes the first import's last record and changes the
// one before it, so that its shard, larger than any merge picks, keeps
// their old copies. Merges must drop the tombstones of events no other
// shard holds a copy of, and keep every one that still hides a copy: at
// each step, each record's word finds its event once, the words of
// replaced versions and of removed records find nothing.
func TestMergesDropTombstones(t *testing.T) {
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	sid := "0d0d0d0d-1111-2222-3333-444444444444"
	file := filepath.Join(home, ".claude", "projects", "-w", sid+".jsonl")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	// Record i holds the word mark<i>q and, in version v, ver<i>x<v>y.
	var lines []string
	var ids []int // the record of each line
	version := map[int]int{}
	gone := map[int]bool{}
	record := func(i int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"u%d","sessionId":"%s","timestamp":"2026-03-01T10:%02d:%02dZ",%s"message":{"role":"user","content":"mark%dq ver%dx%dy and the rest of record %d"}}`,
			i, sid, i/60%60, i%60, map[bool]string{true: `"cwd":"/w",`}[i == 0], i, i, version[i], i)
	}
	write := func() {
		t.Helper()
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	next := 0
	add := func(n int) {
		for range n {
			lines, ids = append(lines, record(next)), append(ids, next)
			next++
		}
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	opts := ingest.Options{Home: store, Env: env, Sources: automatic(), Version: "test", Deferred: true}
	ctx := context.Background()

	const first = 1000
	add(first)
	write()
	if _, err := ingest.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	reindexed := 0
	for round := range 40 {
		switch round % 4 {
		case 0: // the last record is removed, the one before changed
			gone[ids[len(ids)-1]] = true
			lines, ids = lines[:len(lines)-1], ids[:len(ids)-1]
			fallthrough
		case 2: // the last record is written again, changed
			last := len(lines) - 1
			version[ids[last]]++
			lines[last] = record(ids[last])
		}
		add(3)
		write()
		rep, err := ingest.Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Published {
			t.Fatalf("round %d: nothing published", round)
		}
		reindexed += rep.EventsIndexed
		if _, err := ingest.Merge(ctx, opts); err != nil {
			t.Fatal(err)
		}
		if round%8 == 7 {
			assertWords(t, store, first, next, version, gone)
		}
	}
	// Merge down to one small build, as idle time does.
	for {
		rep, err := ingest.Merge(ctx, ingest.Options{Home: store, Env: env, Sources: automatic(), Version: "test", Deferred: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.ShardsMerged == 0 {
			break
		}
	}
	assertWords(t, store, first, next, version, gone)
	tombs := activeTombstones(t, store)
	// 40 passes re-indexed the tail chunk each time: without dropping, a
	// tombstone each for most of them. What may stay is a chunk's worth
	// the first import's shard still holds stale copies of, and the
	// removed records.
	if reindexed < 10*core.ChunkSize {
		t.Fatalf("the passes re-indexed %d events: the test does not rewrite tails", reindexed)
	}
	if len(tombs) > core.ChunkSize+len(gone) {
		t.Fatalf("%d tombstones left after the merges (%d events re-indexed by the passes)", len(tombs), reindexed)
	}
	t.Logf("%d events re-indexed by 40 passes, %d tombstones left", reindexed, len(tombs))
}

// assertWords searches the words of the records from first-100 to n and of
// every 50th before: mark<i>q finds record i once unless it was removed,
// and only its current version's ver word finds it.
func assertWords(t *testing.T, store string, first, n int, version map[int]int, gone map[int]bool) {
	t.Helper()
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	count := func(q string) int {
		res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Results)
	}
	for i := range n {
		if i < first-100 && i%50 != 0 {
			continue
		}
		want := 1
		if gone[i] {
			want = 0
		}
		if got := count(fmt.Sprintf("mark%dq", i)); got != want {
			t.Fatalf("mark%dq finds %d events, want %d", i, got, want)
		}
		for v := range version[i] + 1 {
			w := 0
			if v == version[i] && !gone[i] {
				w = 1
			}
			if got := count(fmt.Sprintf("ver%dx%dy", i, v)); got != w {
				t.Fatalf("version %d of record %d (current %d, removed %v) finds %d events, want %d", v, i, version[i], gone[i], got, w)
			}
		}
	}
}

// activeTombstones reads the active generation's tombstones.
func activeTombstones(t testing.TB, store string) map[core.EventID]uint64 {
	t.Helper()
	g := keptGeneration(t, store)
	if g.Tombstones == nil {
		return nil
	}
	objs, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	tb, err := core.LoadLayeredTombstones(objs, g.TombstonesBase, g.Tombstones)
	if err != nil {
		t.Fatal(err)
	}
	return tb.Current
}
