package index

import (
	"context"

	"github.com/blevesearch/bleve/v2"

	"ctx/core"
)

// offlineBackend is WriterOffline: bleve's Builder analyzes and writes each
// batch as a segment in the calling goroutine and merges them all into one
// segment on close.
type offlineBackend struct {
	b bleve.Builder
}

func newOfflineBackend(dir string, opts BuildOptions) (*offlineBackend, error) {
	b, err := bleve.NewBuilder(dir, newMapping(), map[string]interface{}{
		"batchSize":       max(1, opts.BatchSize/core.ChunkSize), // documents, not events
		"buildPathPrefix": dir,                                   // temporary segments live inside the shard's build dir
	})
	if err != nil {
		return nil, err
	}
	return &offlineBackend{b: b}, nil
}

func (o *offlineBackend) index(ctx context.Context, id string, doc *shardDoc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return o.b.Index(id, doc)
}

func (o *offlineBackend) close(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return o.b.Close()
}

// abort leaves the builder's files to the caller's removal; the Builder has
// no way to stop without writing its final segment.
func (o *offlineBackend) abort() {}
