package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// SweepMin is the tombstones below which SweepTombstones leaves a store
// alone: a set that small costs its readers little.
const SweepMin = 1024

// SweepTombstones drops every tombstone of the active generation that no
// copy of its event needs, and returns how many (0: nothing published).
// Merges drop the tombstones of the events they touch (settleTombstones);
// the ones they never touch stay: those of stores from before merges
// dropped any, and those whose older copies sit in shards too large to be
// merged again and are later merged or purged away. gc runs it.
//
// It counts, without the writer lock, the copies the shards of the active
// generation hold of each tombstoned event, from their chunk lists: a
// chunk the tree no longer holds is read for its event ids, a chunk still
// in its session holds one copy of the events of its ordinals (read only
// when more than one build lists it). A current event's tombstone goes
// when no copy but the one in its current chunk is left, a gone event's
// when no copy is left. Under the lock it drops those whose entry no
// import or merge changed since, and publishes.
func SweepTombstones(ctx context.Context, opts Options) (int, error) {
	r, _, unlock, err := beginReading(ctx, opts)
	if err != nil {
		return 0, err
	}
	unlock()
	if r.st.prev == nil || len(r.st.tombs) < SweepMin {
		return 0, nil
	}
	drop, err := r.unneededTombstones(ctx)
	if err != nil || len(drop) == 0 {
		return 0, err
	}
	p, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		return 0, err
	}
	defer unlock()
	n := 0
	for id, was := range drop {
		if cur, ok := p.st.tombs[id]; ok && cur == was {
			p.st.dropTomb(id)
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	if err := p.publishTombstones(rs, fmt.Sprintf("maintenance: %d tombstones dropped", n)); err != nil {
		return 0, err
	}
	return n, nil
}

// publishTombstones publishes the active generation again with the run's
// tombstones, under the reflog message msg.
func (r *run) publishTombstones(rs *refs.Refs, msg string) error {
	gen := r.nextMaintenance()
	if err := r.st.putTombstones(r.batch, &gen); err != nil {
		r.batch.Abort()
		return err
	}
	return r.publishMaintenance(rs, &gen, msg)
}

// unneededTombstones returns the tombstones of the run's state that no
// copy needs, with their values (see SweepTombstones); nil when a shard
// has no chunk list or a listed chunk is gone from the objects, since its
// events are unknown then.
func (r *run) unneededTombstones(ctx context.Context) (map[core.EventID]uint64, error) {
	tombs := r.st.tombs
	var lists []objects.ID
	for _, s := range r.st.prev.Shards {
		if s.Chunks == nil {
			return nil, nil
		}
		if !slices.Contains(lists, *s.Chunks) {
			lists = append(lists, *s.Chunks)
		}
	}
	stale := map[core.EventID]int{} // copies in chunks the tree no longer holds
	listed := map[objects.ID]int{}  // the builds listing each chunk the tree holds
	current := map[core.SessionID]map[objects.ID]core.ChunkRef{}
	read := map[objects.ID][]core.EventID{} // a replaced chunk is often listed by more than one build
	count := func(c objects.ID, n int) (bool, error) {
		ids, ok := read[c]
		if !ok {
			var err error
			ids, err = core.LoadChunkEventIDs(r.batch, c)
			if errors.Is(err, objects.ErrNotFound) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			read[c] = ids
		}
		for _, id := range ids {
			if _, ok := tombs[id]; ok {
				stale[id] += n
			}
		}
		return true, nil
	}
	for _, list := range lists {
		chunks, err := indexedBySession(r.batch, list)
		if err != nil {
			return nil, err
		}
		for sid, cs := range chunks {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			cur, err := r.currentChunks(sid, current)
			if err != nil {
				return nil, err
			}
			for _, c := range cs {
				if _, ok := cur[c]; ok {
					listed[c]++
					continue
				}
				if ok, err := count(c, 1); !ok || err != nil {
					return nil, err
				}
			}
		}
	}
	for c, n := range listed {
		if n > 1 { // copies beyond the one a current chunk stands for
			if ok, err := count(c, n-1); !ok || err != nil {
				return nil, err
			}
		}
	}
	drop := map[core.EventID]uint64{}
	for id, gen := range tombs {
		if stale[id] == 0 {
			drop[id] = gen
		}
	}
	return drop, nil
}
