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
// index. It holds the writer lock throughout and returns how many shards
// it replaced (0: nothing to purge, nothing published).
func Purge(ctx context.Context, opts Options) (int, error) {
	r, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		return 0, err
	}
	defer unlock()
	cur := r.st.prev
	if cur == nil || len(r.st.forgotten) == 0 {
		return 0, nil
	}
	pick, err := r.forgottenBuilds(cur)
	if err != nil || len(pick) == 0 {
		return 0, err
	}
	m, err := r.reindex(ctx, pick)
	if err != nil {
		return 0, err
	}
	gen := *cur
	gen.Number, gen.Parent, gen.Created, gen.Importer = cur.Number+1, &r.st.prevID, r.opts.Now(), opts.Version
	merged, err := m.shards(r, gen.Number)
	if err != nil {
		r.batch.Abort()
		m.remove(opts.Home)
		return 0, err
	}
	gen.Shards = placeMerged(cur.Shards, m.picked, merged, nil)
	if err := r.st.putTombstones(r.batch, &gen); err != nil {
		r.batch.Abort()
		m.remove(opts.Home)
		return 0, err
	}
	for id, e := range r.st.forgotten {
		if !e.Undone && e.Purged == 0 {
			e.Purged = gen.Number
			r.st.forgotten[id] = e
		}
	}
	if gen.Forgotten, err = r.st.forgotten.Put(r.batch); err != nil {
		r.batch.Abort()
		m.remove(opts.Home)
		return 0, err
	}
	data, err := gen.Encode()
	if err != nil {
		return 0, err
	}
	genID, err := r.batch.Put(data)
	if err == nil {
		err = r.batch.Commit()
	}
	if err != nil {
		r.batch.Abort()
		m.remove(opts.Home)
		return 0, err
	}
	msg := fmt.Sprintf("maintenance: %d shards re-indexed without forgotten sessions", len(m.picked))
	if err := rs.Update(refs.Active, r.st.prevID, genID, msg); err != nil {
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
