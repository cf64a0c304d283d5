package ingest

import (
	"fmt"
	"maps"
	"testing"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// TestTombstoneLayers publishes tombstones the way successive imports do
// and reads every generation back: a publish writes only the entries set
// since the last whole set, until they pass the compaction share, and each
// generation reads back exactly the tombstones that were current.
func TestTombstoneLayers(t *testing.T) {
	store, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ses := core.NewSessionID("claude-code", "s")
	id := func(i int) core.EventID { return core.NewEventID(ses, fmt.Sprint(i)) }
	want := map[core.EventID]uint64{}
	st := &state{tombs: map[core.EventID]uint64{}, tombNew: map[core.EventID]uint64{}}
	publish := func(number uint64, set []int) *refs.Generation {
		t.Helper()
		for _, i := range set {
			st.setTomb(id(i), number)
			want[id(i)] = number
		}
		b := store.NewBatch()
		gen := &refs.Generation{Number: number}
		if err := st.putTombstones(b, gen); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		// What a reader and the next import see.
		got, err := core.LoadLayeredTombstones(store, gen.TombstonesBase, gen.Tombstones)
		if err != nil || !maps.Equal(got.Current, want) {
			t.Fatalf("generation %d reads %d tombstones (%v), want %d", number, len(got.Current), err, len(want))
		}
		next := &state{tombs: map[core.EventID]uint64{}, tombNew: map[core.EventID]uint64{}}
		if err := next.loadTombstones(store, gen); err != nil || !maps.Equal(next.tombs, want) {
			t.Fatalf("generation %d reloads %d tombstones (%v)", number, len(next.tombs), err)
		}
		st = next
		return gen
	}
	var all []int
	for i := range 10_000 {
		all = append(all, i)
	}
	if g := publish(2, all); g.TombstonesBase != nil || g.Tombstones == nil {
		t.Fatalf("the first set is not written whole: %+v", g)
	}
	base := publish(2, nil).Tombstones // nothing new: the whole set again, no object
	for n := uint64(3); n < 12; n++ {
		g := publish(n, []int{int(n) * 7, 20_000 + int(n)}) // one re-indexed, one new
		if g.TombstonesBase == nil || *g.TombstonesBase != *base {
			t.Fatalf("generation %d rewrote the whole set", n)
		}
		top, err := core.LoadTombstones(store, *g.Tombstones)
		if err != nil || len(top.Current) != 2*int(n-2) {
			t.Fatalf("generation %d's recent layer has %d entries (%v), want %d", n, len(top.Current), err, 2*(n-2))
		}
	}
	// Past the compaction share, a new whole set, and layering starts over.
	var many []int
	for i := range compactMin + 1 {
		many = append(many, 30_000+i)
	}
	if g := publish(12, many); g.TombstonesBase != nil {
		t.Fatal("a recent layer past the compaction share was not folded into a whole set")
	}
	if g := publish(13, []int{1}); g.TombstonesBase == nil {
		t.Fatal("no layering after a compaction")
	}
}

// BenchmarkPutTombstones compares a publish that writes a store's 60,000
// tombstones whole (as every publish did before layering) with one that
// writes the 500 set since the last whole set.
//
//	go test ./ingest/ -run '^$' -bench PutTombstones -benchmem
func BenchmarkPutTombstones(b *testing.B) {
	store, err := objects.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ses, st := tombstoned(60_000)
	put := func(b *testing.B, whole bool) {
		for b.Loop() {
			if whole {
				st.tombBase = nil // as if there were no whole set to layer on
			}
			batch := store.NewBatch()
			if err := st.putTombstones(batch, &refs.Generation{}); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(batch.Bytes()), "bytes/publish")
			batch.Abort()
		}
	}
	b.Run("whole-60000", func(b *testing.B) { put(b, true) })
	for i := range 500 {
		st.setTomb(core.NewEventID(ses, fmt.Sprint(i)), 3)
	}
	b.Run("layered-500", func(b *testing.B) { put(b, false) })
}

// BenchmarkLoadTombstones reads a generation's 60,000 tombstones at the
// start of an import: decoded (a fresh process) and copied from the whole
// set the previous import in the same process read (the daemon's passes).
//
//	go test ./ingest/ -run '^$' -bench LoadTombstones -benchmem
func BenchmarkLoadTombstones(b *testing.B) {
	store, err := objects.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	_, st := tombstoned(60_000)
	batch := store.NewBatch()
	gen := &refs.Generation{}
	if err := st.putTombstones(batch, gen); err != nil {
		b.Fatal(err)
	}
	if err := batch.Commit(); err != nil {
		b.Fatal(err)
	}
	load := func(b *testing.B, cold bool) {
		for b.Loop() {
			if cold {
				lastBase.Lock()
				lastBase.tabs = nil
				lastBase.Unlock()
			}
			next := &state{tombs: map[core.EventID]uint64{}, tombNew: map[core.EventID]uint64{}}
			if err := next.loadTombstones(store, gen); err != nil || len(next.tombs) != 60_000 {
				b.Fatal(err)
			}
		}
	}
	b.Run("decoded", func(b *testing.B) { load(b, true) })
	b.Run("copied", func(b *testing.B) { load(b, false) })
}

// tombstoned returns a state holding n tombstones of one session, set by
// generation 2, and that session.
func tombstoned(n int) (core.SessionID, *state) {
	ses := core.NewSessionID("claude-code", "s")
	st := &state{tombs: map[core.EventID]uint64{}, tombNew: map[core.EventID]uint64{}}
	for i := range n {
		st.setTomb(core.NewEventID(ses, fmt.Sprint(i)), 2)
	}
	return ses, st
}
