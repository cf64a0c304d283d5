package ingest

import (
	"cmp"
	"errors"
	"maps"
	"slices"
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
	if st.tombDropped { // no layer can say so: the whole set
		st.tombBase, st.baseLen = nil, 0
	}
	switch {
	case len(st.tombs) == 0:
		st.tombBase, st.baseLen, st.tombNew, st.tombDropped = nil, 0, map[core.EventID]uint64{}, false
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
	st.tombBase, st.baseLen, st.tombNew, st.tombDropped = &id, len(st.tombs), map[core.EventID]uint64{}, false
	lastBase.Lock()
	lastBase.id, lastBase.tabs = id, maps.Clone(st.tombs)
	lastBase.Unlock()
	gen.Tombstones = &id
	return nil
}

// dropTomb removes id's tombstone: every copy of the event left is
// current. A layer cannot say an entry is gone, so the next publish writes
// the whole set.
func (st *state) dropTomb(id core.EventID) {
	delete(st.tombs, id)
	delete(st.tombNew, id)
	st.tombDropped = true
}

// A tombstone is needed only while two shards hold copies of its event,
// or while one holds a copy of an event that is gone. Every time a tail
// chunk is rewritten its events are indexed again, so under the daemon's
// passes nearly every event gets one; a merge that drops the old copies
// drops the tombstones too, or they would grow with all the history the
// daemon ever imported, and with them every reader's load.

// touch is an event with a tombstone whose copies a merge re-indexed or
// dropped.
type touch struct {
	session core.SessionID
	old     uint64 // its tombstone when the merge read it
	ordinal int    // of its current copy, when current
	current bool   // the merged shard holds its current copy
}

// holders is what a merge found of the copies the shards it does not
// replace hold of the events it touched.
type holders struct {
	looked map[string]bool       // the shards looked at
	held   map[core.EventID]bool // events one of them holds a copy of
	all    bool                  // one of them may hold any: keep every tombstone
}

// lookAround finds, without the writer lock, the copies the shards of the
// generation the merge read hold of the events it touched; the publish
// looks only at the shards published since.
func (r *run) lookAround(m *merge) error {
	m.around = holders{looked: map[string]bool{}, held: map[core.EventID]bool{}}
	if r.st.prev == nil || len(m.touched) == 0 {
		return nil
	}
	return r.heldElsewhere(m, m.touched, r.st.prev.Shards, &m.around)
}

// settleTombstones settles the tombstones of the events m touched that no
// import changed since m read them: dropped when no shard but the merged
// ones holds a copy of the event any more, else moved to generation number
// when the merged shard holds its current copy. among is the shards the
// merged ones go into, the picked ones with them.
func (r *run) settleTombstones(m *merge, number uint64, among []refs.Shard) error {
	var live map[core.EventID]touch
	for id, t := range m.touched {
		if cur, ok := r.st.tombs[id]; ok && cur == t.old {
			if live == nil {
				live = map[core.EventID]touch{}
			}
			live[id] = t
		}
	}
	if len(live) == 0 {
		return nil
	}
	h := m.around // reindex looked at the shards it read
	var since []refs.Shard
	for _, s := range among {
		if !h.looked[s.Name] {
			since = append(since, s)
		}
	}
	if err := r.heldElsewhere(m, live, since, &h); err != nil {
		return err
	}
	for id, t := range live {
		switch {
		case h.all || h.held[id]:
			if t.current {
				r.st.setTomb(id, number) // the merged copy is the current one
			}
		default:
			r.st.dropTomb(id)
		}
	}
	return nil
}

// heldElsewhere adds to h the events of touched that a shard of shards
// other than the merge's picked ones holds a copy of, found from the chunk
// lists of their builds: a chunk that was its session's when read holds
// the events of its ordinals, one replaced by then is read. A shard
// without a chunk list, a session not in the tree or a chunk gone from the
// objects could hold any: h.all.
func (r *run) heldElsewhere(m *merge, touched map[core.EventID]touch, shards []refs.Shard, h *holders) error {
	type ord struct {
		at int
		id core.EventID
	}
	bySession := map[core.SessionID][]ord{} // the current ones, by ordinal
	for id, t := range touched {
		o := bySession[t.session]
		if t.current {
			o = append(o, ord{t.ordinal, id})
		}
		bySession[t.session] = o
	}
	for _, o := range bySession {
		slices.SortFunc(o, func(a, b ord) int { return cmp.Compare(a.at, b.at) })
	}
	var lists []objects.ID
	for _, s := range shards {
		h.looked[s.Name] = true
		switch {
		case m.picked[s.Name]:
		case s.Chunks == nil:
			h.all = true
		case !slices.Contains(lists, *s.Chunks):
			lists = append(lists, *s.Chunks)
		}
	}
	if h.all {
		return nil
	}
	current := map[core.SessionID]map[objects.ID]core.ChunkRef{}
	read := map[objects.ID]bool{}
	for _, list := range lists {
		chunks, err := indexedBySession(r.batch, list)
		if err != nil {
			return err
		}
		for sid, ords := range bySession {
			listed := chunks[sid]
			if len(listed) == 0 {
				continue
			}
			cur, err := r.currentChunks(sid, current)
			if err != nil {
				return err
			}
			if cur == nil { // forgotten since
				h.all = true
				return nil
			}
			for _, c := range listed {
				if ref, ok := cur[c]; ok {
					i, _ := slices.BinarySearchFunc(ords, ref.First, func(o ord, at int) int { return cmp.Compare(o.at, at) })
					for ; i < len(ords) && ords[i].at < ref.First+ref.Count; i++ {
						h.held[ords[i].id] = true
					}
					continue
				}
				if read[c] {
					continue
				}
				read[c] = true
				ids, err := chunkIDs(r.batch, c)
				if errors.Is(err, objects.ErrNotFound) {
					h.all = true // gone from the objects, still in the shard
					return nil
				}
				if err != nil {
					return err
				}
				for _, id := range ids {
					if _, ok := touched[id]; ok {
						h.held[id] = true
					}
				}
			}
		}
	}
	return nil
}

// byLists keeps the chunk lists of builds a merge last read, by session:
// a list is immutable, and the large ones (a whole import's) are read by
// every merge the daemon runs.
var byLists struct {
	sync.Mutex
	lists map[objects.ID]map[core.SessionID][]objects.ID
	used  map[objects.ID]uint64
	tick  uint64
}

// maxByLists bounds the lists byLists keeps.
const maxByLists = 64

// indexedBySession returns the chunks of the indexed-chunks list id by
// session.
func indexedBySession(g objects.Getter, id objects.ID) (map[core.SessionID][]objects.ID, error) {
	byLists.Lock()
	defer byLists.Unlock()
	byLists.tick++
	if l, ok := byLists.lists[id]; ok {
		byLists.used[id] = byLists.tick
		return l, nil
	}
	list, err := core.LoadIndexedChunks(g, id)
	if err != nil {
		return nil, err
	}
	l := map[core.SessionID][]objects.ID{}
	for _, ic := range list.Chunks {
		l[ic.Session] = append(l[ic.Session], ic.Chunk)
	}
	if byLists.lists == nil {
		byLists.lists, byLists.used = map[objects.ID]map[core.SessionID][]objects.ID{}, map[objects.ID]uint64{}
	}
	for len(byLists.lists) >= maxByLists {
		oldest := id
		for k, t := range byLists.used {
			if oldest == id || t < byLists.used[oldest] {
				oldest = k
			}
		}
		delete(byLists.lists, oldest)
		delete(byLists.used, oldest)
	}
	byLists.lists[id], byLists.used[id] = l, byLists.tick
	return l, nil
}

// idsOf keeps the event ids of the replaced chunks merges read: the
// same ones are listed by the same large builds merge after merge, and a
// chunk never changes. Bounded by maxKeptIDs ids; past it, it starts over.
var idsOf struct {
	sync.Mutex
	chunks map[objects.ID][]core.EventID
	n      int
}

// maxKeptIDs bounds idsOf: 2 MiB of ids.
const maxKeptIDs = 1 << 17

// chunkIDs returns the event ids of chunk id.
func chunkIDs(g objects.Getter, id objects.ID) ([]core.EventID, error) {
	idsOf.Lock()
	ids, ok := idsOf.chunks[id]
	idsOf.Unlock()
	if ok {
		return ids, nil
	}
	ids, err := core.LoadChunkEventIDs(g, id)
	if err != nil {
		return nil, err
	}
	idsOf.Lock()
	defer idsOf.Unlock()
	if idsOf.chunks == nil || idsOf.n+len(ids) > maxKeptIDs {
		idsOf.chunks, idsOf.n = map[objects.ID][]core.EventID{}, 0
	}
	idsOf.chunks[id] = ids
	idsOf.n += len(ids)
	return ids, nil
}

// currentChunks returns session id's chunks by object id (nil when the
// session is not in the tree), caching them in cache.
func (r *run) currentChunks(id core.SessionID, cache map[core.SessionID]map[objects.ID]core.ChunkRef) (map[objects.ID]core.ChunkRef, error) {
	if c, ok := cache[id]; ok {
		return c, nil
	}
	so, err := r.storedSession(id)
	if so == nil || err != nil {
		cache[id] = nil
		return nil, err
	}
	c := make(map[objects.ID]core.ChunkRef, len(so.Chunks))
	for _, ref := range so.Chunks {
		c[ref.ID] = ref
	}
	cache[id] = c
	return c, nil
}
