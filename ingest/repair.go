package ingest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"ctx/refs"
)

// ErrNotRepairable is returned by Repair for a damaged shard it cannot
// rebuild: one the active generation does not list, or one sealed before
// shards recorded the chunks they cover.
var ErrNotRepairable = errors.New("ingest: shard cannot be rebuilt from the objects")

// Repair rebuilds the named shards of the active generation from the
// objects, which are the truth the index is derived from, and publishes a
// generation that lists the rebuilt shards in their place. A shard is
// rebuilt with the others of its build (they share one chunk list): the
// events of those chunks that are still current there are indexed again,
// as a merge would. It holds the writer lock throughout; a store without
// a generation or names that are empty repair nothing.
func Repair(ctx context.Context, opts Options, shards []string) (*Report, error) {
	r, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer unlock()
	prev := r.st.prev
	if prev == nil || len(shards) == 0 {
		return r.rep, nil
	}
	pick, err := repairBuilds(prev, shards)
	if err != nil {
		return nil, err
	}
	m, err := r.reindex(ctx, pick)
	if err != nil {
		return nil, err
	}
	gen, err := r.placeOver(m, nil)
	if err != nil {
		r.batch.Abort()
		m.remove(r.opts.Home)
		return nil, err
	}
	msg := fmt.Sprintf("repair: %d damaged shards rebuilt from the objects (%s)", len(shards), strings.Join(shards, ", "))
	if err := r.publishMaintenance(rs, gen, msg); err != nil {
		m.remove(r.opts.Home)
		return nil, err
	}
	r.rep.ShardsMerged = len(m.picked)
	return r.rep, nil
}

// repairBuilds returns the builds of gen that hold the named shards.
func repairBuilds(gen *refs.Generation, names []string) ([]*build, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var builds []*build
	byChunks := map[string]*build{}
	for _, s := range gen.Shards {
		if s.Chunks == nil {
			if want[s.Name] {
				return nil, fmt.Errorf("%w: %s has no chunk list (sealed by an older version)", ErrNotRepairable, s.Name)
			}
			continue
		}
		key := s.Chunks.String()
		b := byChunks[key]
		if b == nil {
			b = &build{chunks: *s.Chunks, gen: s.Generation}
			byChunks[key] = b
		}
		b.shards = append(b.shards, s)
	}
	found := map[string]bool{}
	keys := make([]string, 0, len(byChunks))
	for k := range byChunks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b := byChunks[k]
		for _, s := range b.shards {
			if want[s.Name] {
				builds = append(builds, b)
				for _, t := range b.shards {
					found[t.Name] = true
				}
				break
			}
		}
	}
	for _, n := range names {
		if !found[n] {
			return nil, fmt.Errorf("%w: the active generation lists no shard %s", ErrNotRepairable, n)
		}
	}
	return builds, nil
}
