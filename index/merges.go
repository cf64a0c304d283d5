package index

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync"
)

// mergeGate says when the writers of a build may merge their shards. A
// merge maps every segment it takes (up to mergeFanIn, see newBuilder),
// so its peak is the heap of the import around it plus those maps.
//
// While the input flows the writers take turns (one slot): a writer's
// shard full at MaxShardDocs merges while the others convert, and two
// merges at once would add both maps to the parse's heap. When the input
// has ended that heap is garbage. The first writer to reach a last merge
// of at least releaseMin bytes of segments returns it to the OS (once a
// build), and from then on a last merge runs beside the one that holds the
// turn when its segments fit in what was returned: the second map takes
// the place of the heap it replaces, and the end of an import, where one
// writer waited for the other's merge on an idle core, keeps both cores
// busy (docs/benchmarks.md, "The last merges side by side").
//
// The collector would let the heap grow back to twice what is live, into
// the room the second map took (measured at a 1M import: +11 MiB of peak).
// While a merge runs beside the turn, the runtime's memory limit holds the
// Go memory to what the release kept plus the returned bytes no map took,
// so that the peak stays one merge's over the parse's heap; the limit the
// process had is restored when the last such merge ends.
type mergeGate struct {
	turn    chan struct{}              // the build's one turn to merge
	release func() (freed, kept int64) // returns the free heap to the OS: the bytes returned, the Go memory left
	min     int64                      // the segment bytes of a last merge worth a release
	waiting func()                     // if set, called when a merge waits for the turn (tests)

	once   sync.Once
	mu     sync.Mutex
	spare  int64 // returned bytes no merge beside the turn holds
	kept   int64 // the Go memory the release left
	beside int   // merges running beside the turn
	limit  int64 // the process's memory limit before the first of them
}

// releaseMin is the size of a last merge's segments (about 40,000 events
// of the generated corpus) from which a build releases the heap: under it
// a merge is short enough to wait for its turn, and a daemon's small pass
// pays no forced collection.
const releaseMin = 16 << 20

func newMergeGate() *mergeGate {
	return &mergeGate{turn: make(chan struct{}, 1), release: releaseHeap, min: releaseMin}
}

// releaseHeap collects the garbage, returns the free heap to the OS and
// says how many bytes it returned and how much Go memory is left.
func releaseHeap() (freed, kept int64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	debug.FreeOSMemory()
	runtime.ReadMemStats(&after)
	return int64(after.HeapReleased) - int64(before.HeapReleased), int64(after.Sys - after.HeapReleased)
}

// acquire waits until a merge of a shard whose segments take bytes may
// run; last says that the build's input has ended. It returns the
// function that ends the merge, or ctx's error.
func (g *mergeGate) acquire(ctx context.Context, last bool, bytes int64) (func(), error) {
	if last && bytes >= g.min {
		g.once.Do(func() { g.spare, g.kept = g.release() })
	}
	select {
	case g.turn <- struct{}{}:
		return func() { <-g.turn }, nil
	default:
	}
	if last && g.takeSpare(bytes) {
		return func() { g.giveSpare(bytes) }, nil
	}
	if g.waiting != nil {
		g.waiting()
	}
	select {
	case g.turn <- struct{}{}:
		return func() { <-g.turn }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// limitHeld is held by the build whose merges beside the turn set the
// runtime's memory limit, which is the process's: two builds at once in
// one process (a test's, or two stores' writers) would otherwise each
// restore the limit the other set. A build that finds it held merges in
// its turn.
var limitHeld sync.Mutex

// takeSpare takes bytes of the returned room for a merge beside the turn,
// if they fit and no other build holds the memory limit, and holds the Go
// memory to the rest (see mergeGate).
func (g *mergeGate) takeSpare(bytes int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if bytes > g.spare {
		return false
	}
	if g.beside == 0 {
		if !limitHeld.TryLock() {
			return false
		}
		g.limit = debug.SetMemoryLimit(-1)
	}
	g.spare -= bytes
	g.beside++
	debug.SetMemoryLimit(min(g.limit, g.kept+g.spare))
	return true
}

// giveSpare ends a merge beside the turn.
func (g *mergeGate) giveSpare(bytes int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.spare += bytes
	g.beside--
	if g.beside == 0 {
		debug.SetMemoryLimit(g.limit)
		limitHeld.Unlock()
		return
	}
	debug.SetMemoryLimit(min(g.limit, g.kept+g.spare))
}
