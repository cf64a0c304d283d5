package ingest

import (
	"context"
	"errors"

	"ctx/core"
	"ctx/index"
	"ctx/objects"
	"ctx/refs"
)

// Shard merging keeps the shard count bounded when imports are small and
// frequent (the daemon imports every few seconds): once more than
// MaxSmallShards shards come from small builds, their events that are still
// current are re-indexed from objects into one shard of this generation.
const (
	SmallShardDocs = 50_000
	MaxSmallShards = 8
)

// build is the shards one import built, and the chunks they covered.
type build struct {
	chunks objects.ID
	gen    uint64
	shards []refs.Shard
}

// mergeSmallShards replaces the shards of small builds with one merged
// shard when there are too many of them.
func (r *run) mergeSmallShards(gen *refs.Generation) error {
	var builds []*build
	byChunks := map[objects.ID]*build{}
	var keep []refs.Shard
	for _, s := range gen.Shards {
		if s.Chunks == nil {
			keep = append(keep, s)
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
		} else {
			keep = append(keep, b.shards...)
		}
	}
	if count <= MaxSmallShards {
		return nil
	}
	merged, err := r.reindex(small, gen.Number)
	if err != nil {
		return err
	}
	gen.Shards = append(keep, merged...)
	return nil
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
func (r *run) reindex(builds []*build, number uint64) ([]refs.Shard, error) {
	docs := make(chan index.Doc, 1024)
	var shards []index.ShardMeta
	var buildErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		shards, buildErr = index.BuildShards(context.Background(), IndexDir(r.opts.Home), docs, index.BuildOptions{Shards: 1})
	}()
	covered, err := r.feedCurrent(builds, number, docs)
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
func (r *run) feedCurrent(builds []*build, number uint64, docs chan<- index.Doc) ([]core.IndexedChunk, error) {
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
