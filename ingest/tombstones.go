package ingest

import (
	"maps"
	"sync"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// Tombstones are written in two layers (core.LoadLayeredTombstones): a
// whole set, shared by the generations that follow it, and the entries set
// since. A publish writes only the second layer, until it grows past
// compactShare of the whole set (and at least compactMin entries), when a
// new whole set is written. Without layers every publish rewrote every
// tombstone the store had: about a megabyte per publish at 60,000.
const (
	compactMin   = 2048
	compactShare = 8 // the recent layer may reach 1/compactShare of the whole set
)

// lastBase keeps the whole set an import last read, decoded: the daemon
// runs one import after another in the same process, and a whole set is
// immutable (named by its hash) and shared by many generations, so the
// next pass copies it instead of decoding it again.
var lastBase struct {
	sync.Mutex
	id   objects.ID
	tabs map[core.EventID]uint64
}

// loadBase returns a copy of the whole set id, which the caller may change.
func loadBase(store *objects.Store, id objects.ID) (map[core.EventID]uint64, error) {
	lastBase.Lock()
	defer lastBase.Unlock()
	if lastBase.tabs != nil && lastBase.id == id {
		return maps.Clone(lastBase.tabs), nil
	}
	t, err := core.LoadTombstones(store, id)
	if err != nil {
		return nil, err
	}
	lastBase.id, lastBase.tabs = id, t.Current
	return maps.Clone(t.Current), nil
}

// loadTombstones reads g's tombstones into st.
func (st *state) loadTombstones(store *objects.Store, g *refs.Generation) error {
	if g.Tombstones == nil {
		return nil
	}
	if g.TombstonesBase == nil {
		whole, err := loadBase(store, *g.Tombstones)
		if err != nil {
			return err
		}
		st.tombs, st.tombBase, st.baseLen = whole, g.Tombstones, len(whole)
		return nil
	}
	top, err := core.LoadTombstones(store, *g.Tombstones)
	if err != nil {
		return err
	}
	base, err := loadBase(store, *g.TombstonesBase)
	if err != nil {
		return err
	}
	st.tombBase, st.baseLen, st.tombNew = g.TombstonesBase, len(base), top.Current
	st.tombs = base
	maps.Copy(st.tombs, top.Current)
	return nil
}

// setTomb records that the current copy of id is in generation gen's
// shards.
func (st *state) setTomb(id core.EventID, gen uint64) {
	st.tombs[id] = gen
	st.tombNew[id] = gen
}

// putTombstones writes the tombstones of the generation being published
// into b and sets gen's Tombstones and TombstonesBase.
func (st *state) putTombstones(b *objects.Batch, gen *refs.Generation) error {
	gen.Tombstones, gen.TombstonesBase = nil, nil
	switch {
	case len(st.tombs) == 0:
		return nil
	case st.tombBase != nil && len(st.tombNew) == 0:
		gen.Tombstones = st.tombBase
		return nil
	case st.tombBase != nil && len(st.tombNew) <= max(compactMin, st.baseLen/compactShare):
		id, err := (&core.Tombstones{Current: st.tombNew}).Put(b)
		if err != nil {
			return err
		}
		gen.Tombstones, gen.TombstonesBase = &id, st.tombBase
		return nil
	}
	id, err := (&core.Tombstones{Current: st.tombs}).Put(b)
	if err != nil {
		return err
	}
	st.tombBase, st.baseLen, st.tombNew = &id, len(st.tombs), map[core.EventID]uint64{}
	lastBase.Lock()
	lastBase.id, lastBase.tabs = id, maps.Clone(st.tombs)
	lastBase.Unlock()
	gen.Tombstones = &id
	return nil
}
