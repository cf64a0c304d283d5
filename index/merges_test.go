package index

import (
	"context"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/core"
)

// writerRun is a writer started on a closed channel of groups.
type writerRun struct {
	done  chan struct{}
	built []ShardMeta
	err   error
}

func startWriter(root string, docs []Doc, gate *mergeGate, opts BuildOptions) *writerRun {
	groups := make(chan *chunkGroup, len(docs))
	for _, g := range groupsOf(docs) {
		groups <- g
	}
	close(groups)
	w := &writerRun{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		w.built, w.err = writeShards(context.Background(), root, groups, gate, opts.withDefaults())
	}()
	return w
}

// published lists the shards of root that are not build directories.
func published(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), buildPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestLastMergeBesideTheTurn holds the build's turn to merge (another
// writer's merge) and checks which merges of a writer run beside it: a
// last merge whose segments fit in the heap the build released does, and
// gives the bytes back; a merge while the input flows, a last merge larger
// than what was released, and one too small to release for, wait for the
// turn.
func TestLastMergeBesideTheTurn(t *testing.T) {
	const big = 1 << 40
	tests := []struct {
		name     string
		released int64 // what the gate's release returns; -1: the release must not run
		min      int64
		opts     BuildOptions
		beside   bool
	}{
		{"last merge, fits in the released heap", big, 0, BuildOptions{}, true},
		{"last merge, larger than the released heap", 1, 0, BuildOptions{}, false},
		{"last merge under the size worth a release", -1, big, BuildOptions{}, false},
		{"a merge while the input flows", big, 0, BuildOptions{MaxShardDocs: 20}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			docs := manyDocs(40)
			gate := newMergeGate()
			gate.min = tt.min
			released := 0
			gate.release = func() (int64, int64) {
				released++
				if tt.released < 0 {
					t.Error("released the heap for a small merge")
				}
				return tt.released, big
			}
			if tt.opts.MaxShardDocs > 0 { // the build's input ended before, as far as the gate knows
				gate.once.Do(func() { gate.spare, gate.kept = gate.release() })
			}
			tt.opts.BatchSize = core.ChunkSize
			waited := make(chan struct{}, 1)
			gate.waiting = func() {
				select {
				case waited <- struct{}{}:
				default:
				}
			}
			gate.turn <- struct{}{} // another writer's merge
			w := startWriter(root, docs, gate, tt.opts)
			// The writer either ends (its merge ran beside the turn) or
			// waits for the turn; under the race detector either takes
			// seconds, so the test waits for the one that comes.
			select {
			case <-w.done:
				if !tt.beside {
					t.Fatal("the writer finished while another writer merged")
				}
			case <-waited:
				if tt.beside {
					t.Fatal("the writer's last merge waited for the turn")
				}
				if p := published(t, root); len(p) > 0 {
					t.Fatalf("%v published while another writer merged", p)
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("the writer neither finished nor waited for the turn")
			}
			<-gate.turn
			<-w.done
			if w.err != nil || len(w.built) == 0 {
				t.Fatalf("built %+v, %v", w.built, w.err)
			}
			sum := 0
			for _, m := range w.built {
				sum += m.Docs
				if err := Verify(root, m.Name, m.Docs); err != nil {
					t.Fatal(err)
				}
			}
			if sum != len(docs) {
				t.Fatalf("built %d events, want %d", sum, len(docs))
			}
			if released > 1 {
				t.Fatalf("released the heap %d times in one build", released)
			}
			if tt.released >= 0 && gate.spare != tt.released {
				t.Fatalf("spare %d after the merges, want the %d released back", gate.spare, tt.released)
			}
		})
	}
}

// TestShardsMergedBesideAsInTurn builds the same events as one shard
// merged in the turn and as one merged beside it, and two writers merging
// their last shards side by side: every query finds the same events with
// the same scores.
func TestShardsMergedBesideAsInTurn(t *testing.T) {
	docs := manyDocs(600)
	opts := BuildOptions{BatchSize: 4 * core.ChunkSize}
	open := func(gate *mergeGate, writers int, holdTurn bool) *Reader {
		t.Helper()
		root := t.TempDir()
		gate.min, gate.release = 0, func() (int64, int64) { return 1 << 40, 1 << 40 }
		if holdTurn {
			gate.turn <- struct{}{}
		}
		groups := make(chan *chunkGroup, len(docs))
		for _, g := range groupsOf(docs) {
			groups <- g
		}
		close(groups)
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			metas []ShardMeta
		)
		for range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				built, err := writeShards(context.Background(), root, groups, gate, opts.withDefaults())
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				metas = append(metas, built...)
				mu.Unlock()
			}()
		}
		wg.Wait()
		if holdTurn {
			<-gate.turn
		}
		if gate.spare != 1<<40 {
			t.Fatalf("spare %d after the build", gate.spare)
		}
		r, err := Open(root, names(metas), eventsOf(docs))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	inTurn := open(newMergeGate(), 1, false)
	beside := open(newMergeGate(), 1, true)
	twoBeside := open(newMergeGate(), 2, true)
	twoAtOnce := open(newMergeGate(), 2, false)
	for _, q := range []Query{{Text: "walrus", Limit: 1000}, {Text: "number 17", Limit: 50}, {Text: "event 599"}} {
		want := find(t, inTurn, q)
		if len(want) == 0 {
			t.Fatalf("%q found nothing", q.Text)
		}
		for name, r := range map[string]*Reader{"beside": beside} {
			if got := find(t, r, q); !slices.Equal(describe(got), describe(want)) {
				t.Errorf("%s: %q found %v, want %v", name, q.Text, describe(got), describe(want))
			}
		}
		for name, r := range map[string]*Reader{"two beside": twoBeside, "two at once": twoAtOnce} {
			if got := find(t, r, q); !slices.Equal(sortedIDs(got), sortedIDs(want)) {
				t.Errorf("%s: %q found %v, want %v", name, q.Text, sortedIDs(got), sortedIDs(want))
			}
		}
	}
}

func sortedIDs(hits []core.Hit) []string {
	var out []string
	for _, id := range ids(hits) {
		out = append(out, id.String())
	}
	slices.Sort(out)
	return out
}

// TestMergeBesideHoldsTheHeap: while a merge runs beside the turn, the
// runtime's memory limit holds the Go memory to what the release kept plus
// the returned bytes no map took, and the process's own limit comes back
// when the last such merge ends.
func TestMergeBesideHoldsTheHeap(t *testing.T) {
	const own = 1 << 40
	old := debug.SetMemoryLimit(own)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	const kept, freed = 300 << 20, 100 << 20
	gate := newMergeGate()
	gate.release = func() (int64, int64) { return freed, kept }
	ctx := context.Background()
	inTurn, err := gate.acquire(ctx, true, 40<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != own {
		t.Fatalf("limit %d with one merge, in the turn; want the process's %d", got, own)
	}
	first, err := gate.acquire(ctx, true, 30<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(kept+freed-30<<20); got != want {
		t.Fatalf("limit %d with a merge beside the turn, want %d", got, want)
	}
	second, err := gate.acquire(ctx, true, 20<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(kept+freed-50<<20); got != want {
		t.Fatalf("limit %d with two merges beside the turn, want %d", got, want)
	}
	first()
	if got, want := debug.SetMemoryLimit(-1), int64(kept+freed-20<<20); got != want {
		t.Fatalf("limit %d once one ended, want %d", got, want)
	}
	second()
	inTurn()
	if got := debug.SetMemoryLimit(-1); got != own {
		t.Fatalf("limit %d after the merges, want the process's %d back", got, own)
	}
	if gate.spare != freed {
		t.Fatalf("spare %d after the merges, want %d", gate.spare, freed)
	}
}

// TestTwoBuildsOneLimit: of two builds in one process, only the first to
// merge beside its turn sets the memory limit; the other merges in its
// turn until the first is done, so that the process's limit comes back.
func TestTwoBuildsOneLimit(t *testing.T) {
	const own = 1 << 40
	old := debug.SetMemoryLimit(own)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	ctx := context.Background()
	gates := [2]*mergeGate{newMergeGate(), newMergeGate()}
	var inTurn [2]func()
	for i, g := range gates {
		g.release = func() (int64, int64) { return 100 << 20, 300 << 20 }
		var err error
		if inTurn[i], err = g.acquire(ctx, true, 40<<20); err != nil {
			t.Fatal(err)
		}
	}
	beside, err := gates[0].acquire(ctx, true, 30<<20)
	if err != nil {
		t.Fatal(err)
	}
	limit := debug.SetMemoryLimit(-1)
	if gates[1].takeSpare(30 << 20) {
		t.Fatal("a second build merged beside its turn while the first held the limit")
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("limit %d after the second build's try, want %d", got, limit)
	}
	beside()
	if !gates[1].takeSpare(30 << 20) {
		t.Fatal("the second build cannot merge beside its turn once the first is done")
	}
	gates[1].giveSpare(30 << 20)
	for _, done := range inTurn {
		done()
	}
	if got := debug.SetMemoryLimit(-1); got != own {
		t.Fatalf("limit %d after both builds, want the process's %d back", got, own)
	}
}
