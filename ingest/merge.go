package ingest

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"ctx/core"
	"ctx/index"
	"ctx/objects"
	"ctx/refs"
)

// Shard merging keeps the shard count bounded when imports are small and
// frequent (the daemon imports every few seconds): once more than
// MaxSmallShards shards come from small builds, the events still current in
// the smallest of them are re-indexed from objects into one shard of this
// generation. Only the smallest builds are merged (enough to bring the count
// down to MaxSmallShards/2, plus any next build no larger than what is
// already merged), so merged shards grow geometrically and an event is
// re-indexed a logarithmic number of times, not once per merge.
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
// many shards it merged.
func (r *run) mergeSmallShards(ctx context.Context, gen *refs.Generation, limit int) (int, error) {
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
		return 0, nil
	}
	pick := pickMerge(small, count)
	merged, err := r.reindex(ctx, pick, gen.Number)
	if err != nil {
		return 0, err
	}
	// Readers prefer the later of two copies of an event, so the shards
	// kept stay in their order and the merged one (holding only current
	// copies) goes last.
	picked := map[string]bool{}
	for _, b := range pick {
		for _, s := range b.shards {
			picked[s.Name] = true
		}
	}
	var out []refs.Shard
	for _, s := range gen.Shards {
		if !picked[s.Name] {
			out = append(out, s)
		}
	}
	gen.Shards = append(out, merged...)
	return len(picked), nil
}

// needsMerge reports whether a generation has more than limit shards from
// small builds.
func needsMerge(gen *refs.Generation, limit int) bool {
	docs := map[objects.ID]bool{}
	byChunks := map[objects.ID]int{}
	for _, s := range gen.Shards {
		if s.Chunks == nil {
			continue
		}
		byChunks[*s.Chunks]++
		if s.Docs >= SmallShardDocs {
			docs[*s.Chunks] = true
		}
	}
	count := 0
	for id, n := range byChunks {
		if !docs[id] {
			count += n
		}
	}
	return count > limit
}

// pickMerge chooses the smallest builds: enough of them that merging leaves
// at most MaxSmallShards/2 small shards, then every next one no larger than
// the docs already picked.
func pickMerge(small []*build, count int) []*build {
	sorted := slices.Clone(small)
	slices.SortStableFunc(sorted, func(a, b *build) int { return cmp.Compare(buildDocs(a), buildDocs(b)) })
	docs, shards := 0, 0
	i := 0
	for ; i < len(sorted); i++ {
		b := sorted[i]
		enough := i >= 2 && count-shards+1 <= MaxSmallShards/2
		if enough && buildDocs(b) > docs {
			break
		}
		docs, shards = docs+buildDocs(b), shards+len(b.shards)
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

// reindex builds one shard from the events of the builds that are still
// current in them, and moves their tombstones to this generation.
func (r *run) reindex(ctx context.Context, builds []*build, number uint64) ([]refs.Shard, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	docs := make(chan index.Doc, 1024)
	var shards []index.ShardMeta
	var buildErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		shards, buildErr = index.BuildShards(ctx, IndexDir(r.opts.Home), docs, index.BuildOptions{Shards: 1})
		if buildErr != nil {
			cancel()
			for range docs { // drain so the feeder never blocks
			}
		}
	}()
	covered, err := r.feedCurrent(ctx, builds, number, docs)
	close(docs)
	<-done
	if err != nil {
		return nil, err
	}
	if buildErr != nil {
		return nil, buildErr
	}
	list, err := (&core.IndexedChunks{Chunks: covered}).Put(r.batch)
	if err != nil {
		return nil, err
	}
	var out []refs.Shard
	for _, s := range shards {
		out = append(out, refs.Shard{Name: s.Name, Docs: s.Docs, Bytes: s.Bytes, Generation: number, Chunks: &list})
	}
	return out, nil
}

// feedCurrent sends every event of the builds' chunks that is current in
// its build (no tombstone, or a tombstone naming the build's generation)
// and returns the chunks that had one. Events that have older copies
// elsewhere get a tombstone naming generation number, the merged shard's.
func (r *run) feedCurrent(ctx context.Context, builds []*build, number uint64, docs chan<- index.Doc) ([]core.IndexedChunk, error) {
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
					continue
				}
				if has {
					r.st.tombs[e.ID] = number // the merged copy is the current one
				}
				docs <- index.Doc{Event: e, Session: sess, Chunk: ic.Chunk}
				sent = true
			}
			if sent {
				covered = append(covered, ic)
			}
		}
	}
	return covered, nil
}

func (r *run) sessionOf(id core.SessionID, cache map[core.SessionID]*core.Session) (*core.Session, error) {
	if s, ok := cache[id]; ok {
		return s, nil
	}
	e, ok := r.st.tree[id]
	if !ok {
		cache[id] = nil
		return nil, nil
	}
	so, err := core.LoadSession(r.batch, e.Object)
	if err != nil {
		return nil, err
	}
	cache[id] = &so.Session
	return &so.Session, nil
}
