package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/blevesearch/bleve/v2"
)

// A shard's segment files are mapped into memory. A file cut short under a
// process that holds the shard open (the daemon, the MCP server, the
// viewer) turns the next read of a page past its new end into a fault,
// which would kill the process. Two defences keep it alive:
//
//   - Cache.Open compares the sizes of a cached shard's files with those
//     it had when opened, and opens a changed shard anew, which its sums
//     then report as damaged (the search leaves it out and says so);
//   - every read of the mapped pages, in bleve's search goroutines
//     (guarded) and in this package's own, runs with faults made panics
//     (debug.SetPanicOnFault), recovered as ErrShardDamaged naming the
//     shard, for a file cut during a search.

// errFault is a fault on a shard's mapped pages.
var errFault = errors.New("a file changed under the open shard")

// guarded is a shard whose searches turn a fault on its mapped files into
// a failed search of that shard: bleve's alias runs each shard's search in
// a goroutine of its own, so only the shard's own method can arm it.
type guarded struct {
	opened
}

// opened names bleve.Index for embedding: an embedded bleve.Index field
// would be called Index and hide the method of that name.
type opened = bleve.Index

func (g guarded) Search(req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	return g.SearchInContext(context.Background(), req)
}

// SearchInContext reports a fault as the shard's error in the result's
// status, the way the alias reports a shard that failed, so the search
// answers from the other shards and names this one.
func (g guarded) SearchInContext(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	var res *bleve.SearchResult
	err := onMappedPages(g.Name(), "search", func() error {
		var err error
		res, err = g.opened.SearchInContext(ctx, req)
		return err
	})
	if errors.Is(err, errFault) {
		return &bleve.SearchResult{Request: req, Status: &bleve.SearchStatus{Total: 1, Failed: 1,
			Errors: map[string]error{g.Name(): err}}}, nil
	}
	return res, err
}

// onMappedPages runs f, which reads the shard's mapped files, with a
// fault on them returned as ErrShardDamaged. Any other panic is not
// damage and goes on.
func onMappedPages(shard, op string, f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if _, ok := p.(interface{ Addr() uintptr }); !ok {
			panic(p)
		}
		err = shardErr(shard, op, ErrShardDamaged, fmt.Errorf("%w: %v", errFault, p))
	}()
	return f()
}

// fileSizes returns the size of each file of a shard (walkFiles: its sums
// file aside), by path.
func fileSizes(dir string) map[string]int64 {
	out := map[string]int64{}
	_ = walkFiles(dir, func(_, p string) error {
		if fi, err := os.Stat(p); err == nil {
			out[p] = fi.Size()
		}
		return nil
	})
	return out
}

// unchanged reports whether every file recorded by fileSizes still has its
// size.
func unchanged(sizes map[string]int64) bool {
	for p, size := range sizes {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() != size {
			return false
		}
	}
	return true
}
