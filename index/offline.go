package index

import (
	"context"
	"errors"

	"github.com/blevesearch/bleve/v2"
	zapx "github.com/blevesearch/zapx/v17"

	"ctx/core"
)

func init() {
	// zap sizes a new segment's buffer from the previous segment's bytes
	// per document times the new batch's documents plus 100: after a batch
	// of one large document (a piece of a long message, see newShardDocs)
	// that estimate reserved hundreds of MiB for a batch of small ones.
	// Without it the buffer grows as it is written.
	zapx.NewSegmentBufferNumResultsFactor = 0
}

// mergeFanIn is how many segments the builder's close merges at once
// (bleve's default is 10). It takes the first mergeFanIn segments, merges
// them into one at the end of the list and goes on until one is left, so
// with ten a shard of 44 segments (a 200k import's, of about 1,000 events
// each) merged 40 of them twice; with 64 every shard of up to 64 segments
// is merged in one pass, which halved the merge's CPU (docs/benchmarks.md,
// "One merge pass at a time"), and a shard of MaxShardEvents (about 260)
// in two instead of three. A merge maps all the segments it takes; the
// writers of a build merge in turn, or side by side in the room the
// parse's heap left (mergeGate), so that the peak is one merge's.
const mergeFanIn = 64

// errBuildFailed marks a failure to write a shard.
var errBuildFailed = errors.New("index: shard build failed")

// builder writes one shard with bleve's offline Builder, which analyzes
// and writes each batch as a segment file in the calling goroutine and
// merges them all into one segment on close (see doc.go for why).
type builder struct {
	b bleve.Builder
}

func newBuilder(dir string, opts BuildOptions) (*builder, error) {
	b, err := bleve.NewBuilder(dir, shardMapping{newMapping()}, map[string]interface{}{
		"batchSize":       max(1, opts.BatchSize/core.ChunkSize), // documents, not events
		"buildPathPrefix": dir,                                   // temporary segments live inside the shard's build dir
		"mergeMax":        mergeFanIn,
	})
	if err != nil {
		return nil, err
	}
	return &builder{b: b}, nil
}

// index adds a document; the caller never adds an id twice.
func (o *builder) index(ctx context.Context, id string, doc *shardDoc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return o.b.Index(id, doc)
}

// close writes the last batch, merges the segments and closes the shard.
func (o *builder) close(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return o.b.Close()
}

// abort leaves the builder's files to the caller's removal; the Builder has
// no way to stop without writing its final segment.
func (o *builder) abort() {}
