package index

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	zapx "github.com/blevesearch/zapx/v17"
)

// maxInflight bounds the batches handed to bleve that are not yet
// persisted. With unsafe_batch, Batch returns before its segment is on disk,
// so without this bound in-memory segments could pile up.
const maxInflight = 2

// asyncErrorCallback is the name of the bleve callback through which scorch
// reports background persistence errors; it routes them to the backend of
// the shard by store path.
const asyncErrorCallback = "ctx_index_async_error"

var asyncSinks sync.Map // scorch store path → func(error)

func init() {
	// zap sizes a new segment's buffer from the previous segment's bytes
	// per document times the new batch's documents plus 100: after a batch
	// of one large document (a piece of a long message, see newShardDocs)
	// that estimate reserved hundreds of MiB for a batch of small ones.
	// Without it the buffer grows as it is written.
	zapx.NewSegmentBufferNumResultsFactor = 0
	scorch.RegistryAsyncErrorCallbacks[asyncErrorCallback] = func(err error, path string) {
		if f, ok := asyncSinks.Load(path); ok {
			f.(func(error))(err)
		}
	}
}

// errBuildFailed marks a failure to write a shard.
var errBuildFailed = errors.New("index: shard build failed")

// onlineBackend is WriterOnline.
type onlineBackend struct {
	store      string
	opts       BuildOptions
	idx        bleve.Index
	batch      *bleve.Batch
	batchBytes int
	batchEvs   int

	inflight chan struct{} // a slot per batch not yet persisted
	failed   chan error    // first asynchronous failure (buffered 1)
}

func newOnlineBackend(dir string, opts BuildOptions) (*onlineBackend, error) {
	b := &onlineBackend{store: filepath.Join(dir, "store"), opts: opts,
		inflight: make(chan struct{}, maxInflight), failed: make(chan error, 1)}
	asyncSinks.Store(b.store, b.fail)
	cfg := map[string]interface{}{"unsafe_batch": true, "asyncErrorCallbackName": asyncErrorCallback}
	idx, err := bleve.NewUsing(dir, newMapping(), scorch.Name, scorch.Name, cfg)
	if err != nil {
		asyncSinks.Delete(b.store)
		return nil, err
	}
	b.idx, b.batch = idx, idx.NewBatch()
	return b, nil
}

func (b *onlineBackend) fail(err error) {
	select {
	case b.failed <- err:
	default:
	}
}

func (b *onlineBackend) index(ctx context.Context, id string, doc *shardDoc) error {
	if err := b.batch.Index(id, doc); err != nil {
		return err
	}
	b.batchBytes += len(doc.Text)
	b.batchEvs += len(doc.Events)
	if b.batchEvs >= b.opts.BatchSize || b.batchBytes >= b.opts.BatchBytes {
		return b.flush(ctx)
	}
	return nil
}

// flush hands the batch to bleve once a slot is free: each unpersisted
// batch holds one of the maxInflight slots until its persisted callback.
func (b *onlineBackend) flush(ctx context.Context) error {
	if b.batch.Size() == 0 {
		return nil
	}
	if err := b.acquire(ctx); err != nil {
		return err
	}
	var once sync.Once
	release := func() { once.Do(func() { <-b.inflight }) }
	batch := b.batch
	batch.SetPersistedCallback(func(err error) {
		if err != nil {
			b.fail(err)
		}
		release()
	})
	b.batch, b.batchBytes, b.batchEvs = b.idx.NewBatch(), 0, 0
	if err := b.idx.Batch(batch); err != nil {
		release()
		return err
	}
	return nil
}

func (b *onlineBackend) acquire(ctx context.Context) error {
	select {
	case b.inflight <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case err := <-b.failed:
		return err
	}
}

// persisted waits until every batch handed to bleve is on disk, by taking
// every slot.
func (b *onlineBackend) persisted(ctx context.Context) error {
	for i := 0; i < maxInflight; i++ {
		if err := b.acquire(ctx); err != nil {
			return err
		}
	}
	select {
	case err := <-b.failed:
		return err
	default:
		return nil
	}
}

func (b *onlineBackend) close(ctx context.Context) error {
	err := b.flush(ctx)
	if err == nil {
		err = b.persisted(ctx)
	}
	if err != nil {
		return err
	}
	asyncSinks.Delete(b.store)
	err = b.idx.Close()
	b.idx = nil
	return err
}

func (b *onlineBackend) abort() {
	asyncSinks.Delete(b.store)
	if b.idx != nil {
		_ = b.idx.Close()
		b.idx = nil
	}
}
