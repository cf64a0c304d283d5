package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"ctx/core"
	"ctx/objects"
)

// Doc is one event to index, with the session it belongs to, the object
// id of the chunk that stores it and its position in that chunk's events.
// BuildShards indexes the consecutive events of one chunk as one document
// (see shardDoc), so a producer sends a chunk's events together, in order.
type Doc struct {
	Event   *core.Event
	Session *core.Session
	Chunk   objects.ID
	Pos     int
}

// ShardMeta describes a built shard: its directory name under the root, the
// number of events it indexes (in fewer documents: one per group of a
// chunk's events) and its size on disk.
type ShardMeta struct {
	Name  string `json:"name"`
	Docs  int    `json:"docs"`
	Bytes int64  `json:"bytes"`
	// Sums is the hash of the shard's SumsFile, written when it was sealed.
	Sums *objects.ID `json:"sums,omitempty"`
}

// Build defaults, measured on 2 cores (see doc.go). Batches of 2,500 build as
// fast as the study's 5,000 here but peak at about 640 MiB RSS for 200k
// events instead of 1.1–1.2 GiB: segment building is superlinear in batch
// size. bleve holds 25 to 80 times a batch's text while it analyses it and
// builds its segment (more with more distinct terms); the builder counts a
// batch in documents (BatchSize/core.ChunkSize of them), a group's
// document holds each event's distinct terms once, and a long text is split
// into pieces of maxIndexPiece, which bounds a batch (see there).
const (
	DefaultShards    = 2
	DefaultBatchSize = 2500
)

// BuildOptions tune BuildShards; zero values take the defaults.
type BuildOptions struct {
	// Shards is the number of concurrent writers, each building its own
	// shard (DefaultShards).
	Shards int
	// BatchSize is the number of events per bleve batch (DefaultBatchSize);
	// a batch holds whole groups, so it may hold a group more.
	BatchSize int
	// MaxShardDocs makes a writer close its shard and start another after
	// this many events; 0 means no limit.
	MaxShardDocs int
}

func (o BuildOptions) withDefaults() BuildOptions {
	if o.Shards <= 0 {
		o.Shards = DefaultShards
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	return o
}

// BuildShards indexes the docs received on the channel into new shard
// directories under root, with up to opts.Shards writers reading the channel
// concurrently, and returns when the channel is closed and every shard is
// durable, closed, private (0700/0600) and verified by reopening it. A writer
// creates its shard on its first doc, so an empty stream builds nothing and a
// short one may build a single shard (a nil channel builds nothing). Shard
// names are random hex.
//
// On error or cancellation every shard of this call is removed and the error
// returned; BuildShards then stops receiving, so a producer must not block
// on the channel forever (select on a context the caller cancels).
func BuildShards(ctx context.Context, root string, docs <-chan Doc, opts BuildOptions) ([]ShardMeta, error) {
	opts = opts.withDefaults()
	if docs == nil {
		return nil, nil
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("index: build: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		metas []ShardMeta
		first error
		wg    sync.WaitGroup
	)
	groups := make(chan *chunkGroup, opts.Shards)
	// The writers merge their shards in turn while the input flows, and
	// their last shards side by side once the parse's heap is returned
	// (see mergeGate).
	merges := newMergeGate()
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil && first == nil {
			first = err
			cancel()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(groups)
		fail(groupDocs(ctx, docs, groups))
	}()
	for i := 0; i < opts.Shards; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			built, err := writeShards(ctx, root, groups, merges, opts)
			mu.Lock()
			defer mu.Unlock()
			metas = append(metas, built...)
			if err != nil && first == nil {
				first = err
				cancel()
			}
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	if first != nil {
		removeShards(root, metas)
		return nil, first
	}
	return metas, nil
}

func removeShards(root string, metas []ShardMeta) {
	for _, m := range metas {
		_ = os.RemoveAll(filepath.Join(root, m.Name))
	}
}

// writeShards is one writer: it receives groups until the channel closes,
// writing them to its current shard, and returns the shards it completed.
func writeShards(ctx context.Context, root string, docs <-chan *chunkGroup, merges *mergeGate, opts BuildOptions) ([]ShardMeta, error) {
	var (
		built []ShardMeta
		cur   *shardWriter
	)
	finish := func(last bool) error {
		if cur.events() == 0 { // started, then every group went to the other writers
			cur.abort()
			cur = nil
			return nil
		}
		m, err := cur.finish(ctx, merges, last)
		cur = nil
		if err == nil {
			built = append(built, m)
		}
		return err
	}
	for {
		var d *chunkGroup
		var ok bool
		select {
		case <-ctx.Done():
			if cur != nil {
				cur.abort()
			}
			return built, ctx.Err()
		case d, ok = <-docs:
		}
		if !ok {
			if cur == nil {
				return built, nil
			}
			return built, finish(true)
		}
		if err := writeOne(ctx, root, &cur, d, opts); err != nil {
			return built, err
		}
		if opts.MaxShardDocs > 0 && cur.events() >= opts.MaxShardDocs {
			if err := finish(false); err != nil {
				return built, err
			}
		}
	}
}

// writeOne adds d to *cur, creating the shard first if needed; on error the
// shard is aborted.
func writeOne(ctx context.Context, root string, cur **shardWriter, d *chunkGroup, opts BuildOptions) error {
	if *cur == nil {
		w, err := newShardWriter(root, opts)
		if err != nil {
			return err
		}
		*cur = w
	}
	if err := (*cur).add(ctx, d); err != nil {
		(*cur).abort()
		return err
	}
	return nil
}

// maxOpenGroups bounds the chunks being grouped at once: producers that
// interleave their chunks' events (several files imported at once) each
// keep one open; past the bound the least recently extended is indexed as
// it is, and a later event of its chunk starts another group.
const maxOpenGroups = 16

// groupDocs gathers the docs into groups of one chunk's events, up to
// core.ChunkSize each, and sends them on out; it returns ErrInvalidDoc for
// a doc without event or session, and ctx's error when cancelled. On the
// first doc it sends an empty group, which makes a writer start its shard
// (a build in flight shows its directory as soon as it has a doc).
func groupDocs(ctx context.Context, docs <-chan Doc, out chan<- *chunkGroup) error {
	var open []*chunkGroup // least recently extended first
	send := func(g *chunkGroup) error {
		select {
		case out <- g:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	started := false
	for {
		var d Doc
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case d, ok = <-docs:
		}
		if !ok {
			for _, g := range open {
				if err := send(g); err != nil {
					return err
				}
			}
			return nil
		}
		if d.Event == nil || d.Session == nil {
			return ErrInvalidDoc
		}
		if !started {
			started = true
			if err := send(&chunkGroup{}); err != nil {
				return err
			}
		}
		i := slices.IndexFunc(open, func(g *chunkGroup) bool { return g.chunk == d.Chunk && g.session.ID == d.Session.ID })
		var g *chunkGroup
		if i >= 0 {
			g = open[i]
			open = append(open[:i], open[i+1:]...)
		} else {
			g = &chunkGroup{session: d.Session, chunk: d.Chunk}
		}
		if n := len(g.pos); n > 0 && d.Pos <= g.pos[n-1] {
			// out of order or repeated: the group so far is complete
			if err := send(g); err != nil {
				return err
			}
			g = &chunkGroup{session: d.Session, chunk: d.Chunk}
		}
		g.events, g.pos = append(g.events, d.Event), append(g.pos, d.Pos)
		if len(g.events) >= core.ChunkSize {
			if err := send(g); err != nil {
				return err
			}
			continue
		}
		open = append(open, g)
		if len(open) > maxOpenGroups {
			if err := send(open[0]); err != nil {
				return err
			}
			open = open[1:]
		}
	}
}
