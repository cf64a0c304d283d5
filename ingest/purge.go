package ingest

import (
	"context"
	"fmt"

	"ctx/core"
	"ctx/refs"
)

// Purge re-indexes every index build whose shards hold events of a
// forgotten session, without them, and publishes the generation with those
// shards replaced: after it (and gc, which deletes the shards and objects
// no kept generation names) no byte of a forgotten session is left in the
// index. It returns how many shards it replaced (0: nothing to purge,
// nothing published).
//
// Like Merge, it picks the builds under the writer lock, re-indexes them
// without holding it (a build of a hundred thousand events takes seconds,
// which imports and the daemon's passes need not wait), and publishes over
// whatever is active by then under the lock again. When a picked shard is
// gone by then (a merge replaced it), it publishes nothing and the next
// Purge starts over. Sessions forgotten meanwhile keep their tombstones
// (their hits stay dropped) and are purged by the next Purge.
func Purge(ctx context.Context, opts Options) (int, error) {
	r, _, unlock, err := beginReading(ctx, opts)
	if err != nil {
		return 0, err
	}
	cur := r.st.prev
	var pick []*build
	if cur != nil && len(r.st.forgotten) > 0 {
		pick, err = r.forgottenBuilds(cur)
	}
	unlock()
	if err != nil || len(pick) == 0 {
		return 0, err
	}
	planned := map[core.SessionID]bool{} // the sessions the re-index leaves out
	for id, e := range r.st.forgotten {
		if !e.Undone {
			planned[id] = true
		}
	}
	before := map[string]bool{}
	for _, s := range cur.Shards {
		before[s.Name] = true
	}
	m, err := r.reindex(ctx, pick)
	if err != nil {
		return 0, err
	}
	p, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		m.remove(opts.Home)
		return 0, err
	}
	defer unlock()
	if !m.stillPicked(p.st.prev) {
		m.remove(opts.Home)
		return 0, nil
	}
	gen, err := p.placeOver(m, before)
	if err != nil {
		p.batch.Abort()
		m.remove(opts.Home)
		return 0, err
	}
	for id, e := range p.st.forgotten {
		if planned[id] && !e.Undone && e.Purged == 0 {
			e.Purged = gen.Number
			p.st.forgotten[id] = e
		}
	}
	if gen.Forgotten, err = p.st.forgotten.Put(p.batch); err != nil {
		p.batch.Abort()
		m.remove(opts.Home)
		return 0, err
	}
	msg := fmt.Sprintf("maintenance: %d shards re-indexed without forgotten sessions", len(m.picked))
	if err := p.publishMaintenance(rs, gen, msg); err != nil {
		m.remove(opts.Home)
		return 0, err
	}
	return len(m.picked), nil
}

// forgottenBuilds returns the index builds of gen whose chunk lists name a
// chunk of a forgotten session. Shards without a chunk list (built before
// lists existed) cannot be re-indexed and are left (their hits stay
// dropped by the tombstones).
func (r *run) forgottenBuilds(gen *refs.Generation) ([]*build, error) {
	var out []*build
	seen := map[string]bool{}
	for _, s := range gen.Shards {
		if s.Chunks == nil || seen[s.Chunks.String()] {
			continue
		}
		seen[s.Chunks.String()] = true
		list, err := core.LoadIndexedChunks(r.batch, *s.Chunks)
		if err != nil {
			return nil, err
		}
		for _, ic := range list.Chunks {
			if r.st.forgotten.Has(ic.Session) {
				b := &build{chunks: *s.Chunks, gen: s.Generation}
				for _, t := range gen.Shards {
					if t.Chunks != nil && *t.Chunks == *s.Chunks {
						b.shards = append(b.shards, t)
					}
				}
				out = append(out, b)
				break
			}
		}
	}
	return out, nil
}
