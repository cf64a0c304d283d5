package ingest

import (
	"maps"

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

// loadTombstones reads g's tombstones into st.
func (st *state) loadTombstones(store *objects.Store, g *refs.Generation) error {
	if g.Tombstones == nil {
		return nil
	}
	top, err := core.LoadTombstones(store, *g.Tombstones)
	if err != nil {
		return err
	}
	if g.TombstonesBase == nil {
		st.tombs, st.tombBase, st.baseLen = top.Current, g.Tombstones, len(top.Current)
		return nil
	}
	base, err := core.LoadTombstones(store, *g.TombstonesBase)
	if err != nil {
		return err
	}
	st.tombBase, st.baseLen, st.tombNew = g.TombstonesBase, len(base.Current), top.Current
	st.tombs = base.Current
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
	gen.Tombstones = &id
	return nil
}
