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
	"ctx/query"
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
	h := newRewrites(t)
	ctx := context.Background()
	const first = 1000
	h.start(first)
	reindexed := 0
	for round := range 40 {
		h.step(round)
		rep, err := ingest.Run(ctx, h.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Published {
			t.Fatalf("round %d: nothing published", round)
		}
		reindexed += rep.EventsIndexed
		if _, err := ingest.Merge(ctx, h.opts); err != nil {
			t.Fatal(err)
		}
		if round%8 == 7 {
			h.assertWords(first)
		}
	}
	// Merge down to one small build, as idle time does.
	for {
		rep, err := ingest.Merge(ctx, h.opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.ShardsMerged == 0 {
			break
		}
	}
	h.assertWords(first)
	tombs := activeTombstones(t, h.store)
	// 40 passes re-indexed the tail chunk each time: without dropping, a
	// tombstone each for most of them. What may stay is a chunk's worth
	// the first import's shard still holds stale copies of, and the
	// removed records.
	if reindexed < 10*core.ChunkSize {
		t.Fatalf("the passes re-indexed %d events: the test does not rewrite tails", reindexed)
	}
	if len(tombs) > core.ChunkSize+len(h.gone) {
		t.Fatalf("%d tombstones left after the merges (%d events re-indexed by the passes)", len(tombs), reindexed)
	}
	t.Logf("%d events re-indexed by 40 passes, %d tombstones left", reindexed, len(tombs))
}

// rewrites is one Claude Code session an agent keeps rewriting at its end,
// and a store the daemon's way imports it into. Record i holds the word
// mark<i>q and, in version v, ver<i>x<v>y.
type rewrites struct {
	t       *testing.T
	home    string
	store   string
	sid     string
	file    string
	lines   []string
	ids     []int // the record of each line
	version map[int]int
	gone    map[int]bool
	next    int
	opts    ingest.Options
}

func newRewrites(t *testing.T) *rewrites {
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	h := &rewrites{t: t, home: home, store: store, sid: "0d0d0d0d-1111-2222-3333-444444444444",
		version: map[int]int{}, gone: map[int]bool{}}
	h.file = filepath.Join(home, ".claude", "projects", "-w", h.sid+".jsonl")
	if err := os.MkdirAll(filepath.Dir(h.file), 0o700); err != nil {
		t.Fatal(err)
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	h.opts = ingest.Options{Home: store, Env: env, Sources: automatic(), Version: "test", Deferred: true}
	return h
}

// start writes the session's first n records and imports them.
func (h *rewrites) start(n int) {
	h.t.Helper()
	h.add(n)
	h.write()
	if _, err := ingest.Run(context.Background(), h.opts); err != nil {
		h.t.Fatal(err)
	}
}

func (h *rewrites) record(i int) string {
	return fmt.Sprintf(`{"type":"user","uuid":"u%d","sessionId":"%s","timestamp":"2026-03-01T10:%02d:%02dZ",%s"message":{"role":"user","content":"mark%dq ver%dx%dy and the rest of record %d"}}`,
		i, h.sid, i/60%60, i%60, map[bool]string{true: `"cwd":"/w",`}[i == 0], i, i, h.version[i], i)
}

func (h *rewrites) write() {
	h.t.Helper()
	if err := os.WriteFile(h.file, []byte(strings.Join(h.lines, "\n")+"\n"), 0o600); err != nil {
		h.t.Fatal(err)
	}
}

func (h *rewrites) add(n int) {
	for range n {
		h.lines, h.ids = append(h.lines, h.record(h.next)), append(h.ids, h.next)
		h.next++
	}
}

// step is one round of the agent's writing: every fourth round the last
// record is removed and the one before changed, two rounds later the last
// one is changed; then three records are added.
func (h *rewrites) step(round int) {
	switch round % 4 {
	case 0:
		h.gone[h.ids[len(h.ids)-1]] = true
		h.lines, h.ids = h.lines[:len(h.lines)-1], h.ids[:len(h.ids)-1]
		fallthrough
	case 2:
		last := len(h.lines) - 1
		h.version[h.ids[last]]++
		h.lines[last] = h.record(h.ids[last])
	}
	h.add(3)
	h.write()
}

func (h *rewrites) assertWords(first int) {
	h.t.Helper()
	assertWords(h.t, h.store, first, h.next, h.version, h.gone)
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
	tb, err := core.LoadLayeredTombstones(storeObjects(t, store), g.TombstonesBase, g.Tombstones)
	if err != nil {
		t.Fatal(err)
	}
	return tb.Current
}

// TestSweepDropsWhatNoCopyNeeds holds a store whose passes rewrote a
// session's end with no merge after them, so that its tombstones hide
// older copies the pass builds still hold, and adds the tombstones a store
// from before merges dropped any would also hold: events indexed once,
// whose tombstone names the build that holds them, and events gone with
// no copy left. The sweep must drop exactly those: every record's word
// still finds its event once, replaced versions and removed records
// nothing; a second sweep finds nothing to drop; and a set under SweepMin
// is left alone.
func TestSweepDropsWhatNoCopyNeeds(t *testing.T) {
	h := newRewrites(t)
	ctx := context.Background()
	const first = 1000
	h.start(first)
	for round := range 12 {
		h.step(round)
		if _, err := ingest.Run(ctx, h.opts); err != nil {
			t.Fatal(err)
		}
	}
	real := activeTombstones(t, h.store)
	if len(real) == 0 {
		t.Fatal("the passes left no tombstone")
	}
	if n, err := ingest.SweepTombstones(ctx, h.opts); err != nil || n != 0 {
		t.Fatalf("a sweep of %d tombstones (under SweepMin) dropped %d: %v", len(real), n, err)
	}
	// The first 50 events of the session, indexed once by generation 1,
	// and gone events of which nothing is left.
	r, err := query.Open(h.store)
	if err != nil {
		t.Fatal(err)
	}
	page, err := r.ListEvents(ctx, query.ListRequest{Limit: 50, Content: "none"})
	r.Close()
	if err != nil || len(page.Events) != 50 {
		t.Fatalf("listing: %v", err)
	}
	added := map[core.EventID]uint64{}
	for _, e := range page.Events {
		id, err := core.ParseEventID(e.CtxEventID)
		if err != nil {
			t.Fatal(err)
		}
		added[id] = 1
	}
	ses := core.NewSessionID(core.ProviderClaude, "gone")
	for i := range ingest.SweepMin {
		added[core.NewEventID(ses, fmt.Sprint(i))] = 0
	}
	if err := ingest.AddTombstones(h.store, added); err != nil {
		t.Fatal(err)
	}
	n, err := ingest.SweepTombstones(ctx, h.opts)
	if err != nil {
		t.Fatal(err)
	}
	left := activeTombstones(t, h.store)
	if n != len(added) || len(left) != len(real) {
		t.Fatalf("the sweep dropped %d of %d added tombstones; %d left of %d needed", n, len(added), len(left), len(real))
	}
	for id, gen := range real {
		if left[id] != gen {
			t.Fatalf("a needed tombstone was dropped or changed")
		}
	}
	h.assertWords(first)
	if n, err := ingest.SweepTombstones(ctx, h.opts); err != nil || n != 0 {
		t.Fatalf("a second sweep dropped %d: %v", n, err)
	}
}
