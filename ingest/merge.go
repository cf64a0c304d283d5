package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"ctx/core"
	"ctx/index"
	"ctx/objects"
	"ctx/refs"
	"ctx/store"
)

// Shard merging keeps the shard count bounded when imports are small and
// frequent (the daemon imports every few seconds): once more than
// MaxSmallShards shards come from small builds, the events still current in
// the smallest of them are re-indexed from objects into one shard of this
// generation. Only the smallest builds are merged (the two smallest, plus
// every next build no larger than what is already picked), so merged
// shards grow geometrically and an event is re-indexed a logarithmic number
// of times, not once per merge.
//
// With Options.Deferred (the daemon) merging is left to Maintain, run in
// idle time; a pass merges inline only past HardMaxSmallShards, which
// bounds the shard count when writes never leave the daemon idle.
const (
	SmallShardDocs     = 50_000
	MaxSmallShards     = 8
	HardMaxSmallShards = 4 * MaxSmallShards
)

// build is the shards one import built, and the chunks they covered.
type build struct {
	chunks objects.ID
	gen    uint64
	shards []refs.Shard
}

// mergeSmallShards replaces the shards of the smallest builds with one
// merged shard when there are more than limit small shards, and returns how
// many shards it merged. The run holds the writer lock throughout.
func (r *run) mergeSmallShards(ctx context.Context, gen *refs.Generation, limit int) (int, error) {
	pick := planMerge(gen, limit)
	if pick == nil {
		return 0, nil
	}
	m, err := r.reindex(ctx, pick)
	if err != nil {
		return 0, err
	}
	merged, err := m.shards(r, gen.Number, gen.Shards)
	if err != nil {
		return 0, err
	}
	for _, s := range gen.Shards {
		if m.picked[s.Name] && s.Generation == gen.Number {
			r.mergedAway = append(r.mergedAway, s.Name)
		}
	}
	gen.Shards = placeMerged(gen.Shards, m.picked, merged, nil)
	return len(m.picked), nil
}

// planMerge returns the builds to merge when gen has more than limit
// shards from small builds, else nil.
func planMerge(gen *refs.Generation, limit int) []*build {
	var builds []*build
	byChunks := map[objects.ID]*build{}
	for _, s := range gen.Shards {
		if s.Chunks == nil {
			continue
		}
		b := byChunks[*s.Chunks]
		if b == nil {
			b = &build{chunks: *s.Chunks, gen: s.Generation}
			byChunks[*s.Chunks] = b
			builds = append(builds, b)
		}
		b.shards = append(b.shards, s)
	}
	var small []*build
	count := 0
	for _, b := range builds {
		if isSmall(b) {
			small, count = append(small, b), count+len(b.shards)
		}
	}
	if count <= limit {
		return nil
	}
	return pickMerge(small)
}

// placeMerged returns shards without the picked ones and with merged
// inserted. Readers prefer the later of two copies of an event, so the
// kept shards stay in their order and the merged ones (holding only copies
// that were current) go after every shard that existed when the merge
// began (before; nil means all of them) and before any built since.
func placeMerged(shards []refs.Shard, picked map[string]bool, merged []refs.Shard, before map[string]bool) []refs.Shard {
	at := 0
	var out []refs.Shard
	for _, s := range shards {
		if picked[s.Name] {
			continue
		}
		out = append(out, s)
		if before == nil || before[s.Name] {
			at = len(out)
		}
	}
	return slices.Insert(out, at, merged...)
}

// Merge merges small shards beside imports (the daemon runs it after each
// publish): it picks the smallest builds of the active generation under
// the writer lock, re-indexes them without holding it, and then, under the
// lock again, publishes a generation over whatever is active by then with
// the picked shards replaced. Tombstones an import changed meanwhile win
// over the merge's. When a picked shard is gone by then (another merge),
// it publishes nothing. When ctx ends it stops and publishes nothing.
func Merge(ctx context.Context, opts Options) (*Report, error) {
	r, _, unlock, err := beginReading(ctx, opts)
	if err != nil {
		return nil, err
	}
	prev := r.st.prev
	var pick []*build
	if prev != nil {
		pick = planMerge(prev, MaxSmallShards)
	}
	unlock()
	if pick == nil {
		return r.rep, nil
	}
	before := map[string]bool{}
	for _, s := range prev.Shards {
		before[s.Name] = true
	}
	m, err := r.reindex(ctx, pick)
	if err != nil {
		return nil, err
	}
	p, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		m.remove(r.opts.Home)
		return nil, err
	}
	defer unlock()
	if !m.stillPicked(p.st.prev) {
		m.remove(r.opts.Home)
		return p.rep, nil
	}
	for _, s := range m.built {
		if _, err := os.Stat(filepath.Join(store.At(opts.Home).Index(), s.Name)); err != nil {
			return nil, fmt.Errorf("merge: the merged shard vanished before publishing: %w", err)
		}
	}
	gen, err := p.placeOver(m, before)
	if err != nil {
		p.batch.Abort()
		return nil, err
	}
	if err := p.publishMaintenance(rs, gen, fmt.Sprintf("maintenance: %d small shards merged", len(m.picked))); err != nil {
		return nil, err
	}
	p.rep.ShardsMerged = len(m.picked)
	return p.rep, nil
}

// stillPicked reports whether gen still holds every shard the merge
// replaces (another merge may have replaced one since it was picked).
func (m *merge) stillPicked(gen *refs.Generation) bool {
	have := map[string]bool{}
	for _, s := range gen.Shards {
		have[s.Name] = true
	}
	for name := range m.picked {
		if !have[name] {
			return false
		}
	}
	return true
}

// placeOver returns the generation after the run's active one with the
// merge's shards in place of the picked ones (see placeMerged) and its
// tombstones, all written into the run's batch.
func (r *run) placeOver(m *merge, before map[string]bool) (*refs.Generation, error) {
	cur := r.st.prev
	gen := r.nextMaintenance()
	merged, err := m.shards(r, gen.Number, cur.Shards)
	if err != nil {
		return nil, err
	}
	gen.Shards = placeMerged(cur.Shards, m.picked, merged, before)
	if err := r.st.putTombstones(r.batch, &gen); err != nil {
		return nil, err
	}
	return &gen, nil
}

// nextMaintenance returns the generation after the run's active one, as a
// maintenance step that changes its shards or tombstones starts it.
func (r *run) nextMaintenance() refs.Generation {
	gen := *r.st.prev
	parent := r.st.prevID // a copy: a pointer into the state would keep every earlier state alive
	gen.Number, gen.Parent, gen.Created, gen.Importer = gen.Number+1, &parent, r.opts.Now(), r.opts.Version
	return gen
}

// publishMaintenance stores gen, commits the run's batch and makes gen
// active with the reflog message msg; the run's state is then gen's.
func (r *run) publishMaintenance(rs *refs.Refs, gen *refs.Generation, msg string) error {
	data, err := gen.Encode()
	if err != nil {
		r.batch.Abort()
		return err
	}
	genID, err := r.batch.Put(data)
	if err == nil {
		err = r.batch.Commit()
	}
	if err != nil {
		r.batch.Abort()
		return err
	}
	if err := rs.Update(refs.Active, r.st.prevID, genID, msg); err != nil {
		return err
	}
	r.rep.Published, r.rep.Generation, r.rep.GenerationID = true, gen, genID
	r.keepPublished(r.rep)
	return nil
}

// BuildVectors builds the semantic vectors of the active generation (what
// Options.Deferred leaves out of Run) under the writer lock.
func BuildVectors(ctx context.Context, opts Options) (*Report, error) {
	r, _, unlock, err := beginReading(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r.buildVectors(ctx)
	return r.rep, ctx.Err()
}

// pickMerge chooses the two smallest builds, then every next one no
// larger than the docs already picked: merged shards grow geometrically,
// so an event is re-indexed a logarithmic number of times, and a merge
// never re-indexes a large shard to absorb a few tiny ones.
func pickMerge(small []*build) []*build {
	sorted := slices.Clone(small)
	slices.SortStableFunc(sorted, func(a, b *build) int { return cmp.Compare(buildDocs(a), buildDocs(b)) })
	docs := 0
	i := 0
	for ; i < len(sorted); i++ {
		if i >= 2 && buildDocs(sorted[i]) > docs {
			break
		}
		docs += buildDocs(sorted[i])
	}
	return sorted[:i]
}

func buildDocs(b *build) int {
	n := 0
	for _, s := range b.shards {
		n += s.Docs
	}
	return n
}

func isSmall(b *build) bool {
	for _, s := range b.shards {
		if s.Docs >= SmallShardDocs {
			return false
		}
	}
	return true
}

// merge is a built merged shard: what it covers and the tombstones it
// moves.
type merge struct {
	picked  map[string]bool // names of the shards it replaces
	built   []index.ShardMeta
	covered []core.IndexedChunk
	touched map[core.EventID]touch // events with a tombstone that it re-indexed or dropped copies of
	around  holders                // what the shards it does not replace hold of them
}

// shards settles the tombstones of the events the merge touched that have
// not changed since it read them (see settleTombstones; among is the
// shards it goes into, the picked ones with them), stores the covered
// chunk list in r's batch and returns the merged shards of generation
// number.
func (m *merge) shards(r *run, number uint64, among []refs.Shard) ([]refs.Shard, error) {
	if err := r.settleTombstones(m, number, among); err != nil {
		return nil, err
	}
	list, err := (&core.IndexedChunks{Chunks: m.covered}).Put(r.batch)
	if err != nil {
		return nil, err
	}
	var out []refs.Shard
	for _, s := range m.built {
		out = append(out, refs.Shard{Name: s.Name, Docs: s.Docs, Bytes: s.Bytes, Generation: number, Chunks: &list, Sums: s.Sums})
	}
	return out, nil
}

// remove deletes the shards of a merge that will not be published.
func (m *merge) remove(home string) {
	for _, s := range m.built {
		_ = os.RemoveAll(filepath.Join(store.At(home).Index(), s.Name))
	}
}

// reindex builds one shard from the events of the builds that are still
// current in them. It writes no object, so it may run without the writer
// lock.
func (r *run) reindex(ctx context.Context, builds []*build) (*merge, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	docs := make(chan index.Doc, 1024)
	m := &merge{picked: map[string]bool{}, touched: map[core.EventID]touch{}}
	for _, b := range builds {
		for _, s := range b.shards {
			m.picked[s.Name] = true
		}
	}
	var buildErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.built, buildErr = index.BuildShards(ctx, store.At(r.opts.Home).Index(), docs, index.BuildOptions{Shards: 1})
		if buildErr != nil {
			cancel()
			for range docs { // drain so the feeder never blocks
			}
		}
	}()
	var err error
	m.covered, err = r.feedCurrent(ctx, builds, m, docs)
	close(docs)
	<-done
	if err == nil {
		err = buildErr
	}
	if err == nil {
		err = r.lookAround(m)
	}
	if err != nil {
		m.remove(r.opts.Home)
		return nil, err
	}
	return m, nil
}

// feedCurrent sends every event of the builds' chunks that is current in
// its build (no tombstone, or a tombstone naming the build's generation)
// and returns the chunks that had one. Events with a tombstone are noted
// in m.touched: those the merged shard holds the current copy of, and
// those gone from their session, whose old copies it drops.
func (r *run) feedCurrent(ctx context.Context, builds []*build, m *merge, docs chan<- index.Doc) ([]core.IndexedChunk, error) {
	sessions := map[core.SessionID]*core.Session{}
	var covered []core.IndexedChunk
	for _, b := range builds {
		list, err := core.LoadIndexedChunks(r.batch, b.chunks)
		if err != nil {
			return nil, err
		}
		for _, ic := range list.Chunks {
			sess, err := r.sessionOf(ic.Session, sessions)
			if err != nil || sess == nil {
				continue // a session no longer in the tree has nothing current
			}
			c, err := core.LoadChunk(r.batch, ic.Chunk)
			if errors.Is(err, objects.ErrNotFound) {
				// gc removed a chunk that no kept tree reaches: it was
				// replaced, so none of its events is current.
				continue
			}
			if err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sent := false
			for k := range c.Events {
				e := &c.Events[k]
				cur, has := r.st.tombs[e.ID]
				if has && cur != b.gen {
					if _, seen := m.touched[e.ID]; !seen && cur == 0 {
						m.touched[e.ID] = touch{session: ic.Session}
					}
					continue
				}
				if has {
					m.touched[e.ID] = touch{session: ic.Session, old: cur, ordinal: e.Ordinal, current: true}
				}
				select {
				case docs <- index.Doc{Event: e, Session: sess, Chunk: ic.Chunk, Pos: k}:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				sent = true
			}
			if sent {
				covered = append(covered, ic)
			}
		}
	}
	return covered, nil
}

// sessionOf returns the metadata of session id as the tree holds it (nil
// when it holds none), caching it in cache.
func (r *run) sessionOf(id core.SessionID, cache map[core.SessionID]*core.Session) (*core.Session, error) {
	if s, ok := cache[id]; ok {
		return s, nil
	}
	so, err := r.storedSession(id)
	if so == nil || err != nil {
		cache[id] = nil
		return nil, err
	}
	cache[id] = &so.Session
	return &so.Session, nil
}

// storedSession returns session id's object as the tree holds it, nil when
// it holds none.
func (r *run) storedSession(id core.SessionID) (*core.SessionObject, error) {
	e, ok := r.st.tree[id]
	if !ok {
		return nil, nil
	}
	return core.LoadSession(r.batch, e.Object)
}
