package index

import (
	"errors"
	"fmt"
)

// Format is the version of the shard format this package reads and
// writes (mapping, stored hit field, hit encoding). A shard of an earlier
// format fails to open with ErrShardFormat and must be rebuilt. Format 2
// indexes one document per group of a chunk's events instead of one per
// event; format 3 stores each event's length in the group's hit and gives
// the text field analyzed (TermsAnalyzer), so that a search scores an event
// without analyzing its whole text again.
const Format = 3

var (
	// ErrShardMissing is wrapped by a ShardError when a shard directory does
	// not exist.
	ErrShardMissing = errors.New("index: shard missing")
	// ErrShardDamaged is wrapped by a ShardError when a shard cannot be opened
	// or read, or holds other than the expected number of documents.
	ErrShardDamaged = errors.New("index: shard damaged")
	// ErrShardFormat is wrapped by a ShardError for a shard written by an
	// earlier, incompatible version of this package; rebuild it (the index
	// is disposable).
	ErrShardFormat = errors.New("index: shard format outdated")
	// ErrInvalidShardName is wrapped by a ShardError for a name that is not a
	// plain directory name.
	ErrInvalidShardName = errors.New("index: invalid shard name")
	// ErrInvalidDoc is returned by BuildShards for a Doc without an event or
	// session.
	ErrInvalidDoc = errors.New("index: doc needs an event and a session")
	// ErrNoSearchableTerms is returned by Search for text that holds
	// nothing the index can match: only common words (the, of, is…),
	// punctuation or excluded words.
	ErrNoSearchableTerms = errors.New("index: the query has no searchable words")
	// ErrNoEvents is returned by Search and Lookup of a Reader opened
	// without WithEvents: a shard document is a group of events, which are
	// read from the store.
	ErrNoEvents = errors.New("index: the reader cannot read events (WithEvents)")
)

// ShardError names the shard an operation failed on. Err wraps one of the
// sentinels above (match with errors.Is) and the underlying cause.
type ShardError struct {
	Shard string
	Op    string // open, read, verify, build
	Err   error
}

func (e *ShardError) Error() string {
	return fmt.Sprintf("index: %s shard %s: %v", e.Op, e.Shard, e.Err)
}

func (e *ShardError) Unwrap() error { return e.Err }

func shardErr(shard, op string, kind, cause error) *ShardError {
	if cause == nil {
		return &ShardError{Shard: shard, Op: op, Err: kind}
	}
	return &ShardError{Shard: shard, Op: op, Err: fmt.Errorf("%w: %w", kind, cause)}
}

// Rebuildable reports whether err is a shard's that the store can rebuild
// from its objects: damaged, missing or of an earlier format. A reader
// that skips damaged shards leaves these out, and the daemon and ctx
// verify --repair rebuild them.
func Rebuildable(err error) bool {
	var se *ShardError
	return errors.As(err, &se) &&
		(errors.Is(err, ErrShardDamaged) || errors.Is(err, ErrShardMissing) || errors.Is(err, ErrShardFormat))
}
