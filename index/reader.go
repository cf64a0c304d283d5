package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"ctx/core"
	"ctx/objects"
)

// DefaultBoltTimeout bounds how long opening a shard waits for its lock.
// Shards are immutable, so a timeout means something else holds it for
// writing; without a timeout bleve would block forever.
const DefaultBoltTimeout = time.Second

// Reader searches a fixed set of shards (one generation's), each opened
// read-only and joined behind one bleve index alias. It is safe for
// concurrent use.
type Reader struct {
	shards     []string
	order      map[string]int
	idxs       []bleve.Index
	alias      bleve.IndexAlias
	superseded func(shard string, id core.EventID) bool
	analyzer   analysis.Analyzer // the query analyzer
	code       analysis.Analyzer // the code-aware analysis of one event (newEventAnalyzer)
	chunks     func(chunk objects.ID) (*Chunk, error)
	stats      stats
	release    func() // set by Cache.Open: Close hands the shards back

	dfMu sync.Mutex
	dfs  map[string]uint64 // text terms' document frequencies over the shards (see docFreq)
	// counts remembers each shard's sums of term frequencies (sumFreq)
	// beyond this Reader: a Cache's shard keeps them for every Reader it
	// is in; nil for a shard opened for this Reader alone.
	counts []*termCounts
	// damaged is the shards left out at open (SkipDamaged).
	damaged []*ShardError
}

type readerConfig struct {
	boltTimeout time.Duration
	superseded  func(shard string, id core.EventID) bool
	chunks      func(chunk objects.ID) (*Chunk, error)
	skipDamaged bool
}

// Option configures Open.
type Option func(*readerConfig)

// WithBoltTimeout sets how long opening a shard waits for its lock
// (DefaultBoltTimeout).
func WithBoltTimeout(d time.Duration) Option { return func(c *readerConfig) { c.boltTimeout = d } }

// WithSuperseded sets the generation's tombstones: hits for which f returns
// true are dropped by Search and Lookup, in addition to Query.Superseded.
func WithSuperseded(f func(shard string, id core.EventID) bool) Option {
	return func(c *readerConfig) { c.superseded = f }
}

// WithEvents sets how the Reader reads the events of a chunk (the store's
// chunk object, in order). A shard document is a group of a chunk's
// events: Search scores each event of the groups it matches, and Lookup
// finds an event in its group, so both need it (ErrNoEvents without).
func WithEvents(f func(chunk objects.ID) ([]core.Event, error)) Option {
	return func(c *readerConfig) {
		c.chunks = func(id objects.ID) (*Chunk, error) {
			events, err := f(id)
			if err != nil {
				return nil, err
			}
			return ChunkOf(events), nil
		}
	}
}

// WithChunks is WithEvents for a reader that keeps chunks as Chunk (the
// store's bytes, see NewChunk), so that a search decodes only the events
// that may match.
func WithChunks(f func(chunk objects.ID) (*Chunk, error)) Option {
	return func(c *readerConfig) { c.chunks = f }
}

// SkipDamaged makes Open leave out a shard that is damaged, missing or
// of an earlier format (ErrShardDamaged, ErrShardMissing, ErrShardFormat)
// instead of failing: the Reader searches the others and Damaged names
// what it left out, which the store can rebuild. A search that
// meets a damaged shard while it reads says so too (Result.Damaged).
func SkipDamaged() Option { return func(c *readerConfig) { c.skipDamaged = true } }

// Damaged returns the shards Open left out (SkipDamaged), each a
// *ShardError naming the shard and why.
func (r *Reader) Damaged() []*ShardError { return append([]*ShardError(nil), r.damaged...) }

// skip reports whether a shard that failed to open with err is left out
// (recording it) rather than failing the open.
func (r *Reader) skip(cfg readerConfig, err error) bool {
	var se *ShardError
	if !cfg.skipDamaged || !Rebuildable(err) || !errors.As(err, &se) {
		return false
	}
	r.damaged = append(r.damaged, se)
	return true
}

// Open opens the named shards under root read-only. Shards are listed oldest
// first: when one event id is live in two shards, Lookup prefers the later.
// A missing or unreadable shard is a *ShardError naming it (unless
// SkipDamaged).
func Open(root string, shards []string, opts ...Option) (*Reader, error) {
	cfg := readerConfig{boltTimeout: DefaultBoltTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	r, err := newReader(cfg, len(shards))
	if err != nil {
		return nil, err
	}
	for _, name := range shards {
		if _, dup := r.order[name]; dup {
			continue
		}
		idx, err := openShard(root, name, cfg.boltTimeout)
		if err != nil {
			if r.skip(cfg, err) {
				continue
			}
			_ = r.Close()
			return nil, err
		}
		r.add(name, idx, nil)
	}
	if err := r.join(); err != nil {
		_ = r.Close()
		return nil, err
	}
	return r, nil
}

// newReader returns a Reader without shards.
func newReader(cfg readerConfig, shards int) (*Reader, error) {
	m := newMapping()
	analyzer := m.AnalyzerNamed(QueryAnalyzer)
	if analyzer == nil {
		return nil, fmt.Errorf("index: analyzer %s not registered", QueryAnalyzer)
	}
	code, err := newEventAnalyzer(registry.NewCache())
	if err != nil {
		return nil, fmt.Errorf("index: event analyzer: %w", err)
	}
	return &Reader{order: make(map[string]int, shards), superseded: cfg.superseded, analyzer: analyzer,
		code: code, chunks: cfg.chunks}, nil
}

func (r *Reader) add(name string, idx bleve.Index, counts *termCounts) {
	r.order[name] = len(r.shards)
	r.shards = append(r.shards, name)
	r.idxs = append(r.idxs, guarded{opened: idx})
	r.counts = append(r.counts, counts)
}

// shardFreq is sumFreq of term over the i-th shard (read with rdr), from
// the shard's remembered counts when it has them.
func (r *Reader) shardFreq(i int, rdr bleveindex.IndexReader, term string) (uint64, error) {
	c := r.counts[i]
	if n, ok := c.get(term); ok {
		return n, nil
	}
	n, err := sumFreq(rdr, term)
	if err == nil {
		c.put(term, n)
	}
	return n, err
}

// termCounts are one shard's sums of term frequencies, which never change
// (a shard is written once). A nil *termCounts remembers nothing.
type termCounts struct {
	mu sync.Mutex
	m  map[string]uint64
}

func (c *termCounts) get(term string) (uint64, bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.m[term]
	return n, ok
}

// put remembers a sum; past maxCachedDFs terms the shard starts over.
func (c *termCounts) put(term string, n uint64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedDFs {
		c.m = make(map[string]uint64)
	}
	c.m[term] = n
}

// join puts the opened shards behind one alias.
func (r *Reader) join() error {
	alias := bleve.NewIndexAlias(r.idxs...)
	if err := alias.SetIndexMapping(newMapping()); err != nil {
		return fmt.Errorf("index: open: %w", err)
	}
	r.alias = alias
	r.stats = stats{}
	for i, idx := range r.idxs {
		var n uint64
		err := onMappedPages(r.shards[i], "open", func() (err error) {
			n, err = r.shardEvents(i, idx)
			return err
		})
		if err != nil {
			return fmt.Errorf("index: open: %w", err)
		}
		r.stats.docs += float64(n)
	}
	return nil
}

func openShard(root, name string, timeout time.Duration) (bleve.Index, error) {
	dir, err := shardDir(root, name)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, shardErr(name, "open", ErrShardMissing, err)
	case err != nil:
		return nil, shardErr(name, "open", ErrShardDamaged, err)
	case !st.IsDir():
		return nil, shardErr(name, "open", ErrShardDamaged, errors.New("not a directory"))
	}
	if list, err := readSums(dir, nil); err == nil {
		if err := checkSums(dir, list, false); err != nil {
			return nil, shardErr(name, "open", ErrShardDamaged, err)
		}
	} else if !errors.Is(err, errNoSums) {
		return nil, shardErr(name, "open", ErrShardDamaged, err)
	} else if err := checkBoltSize(dir); err != nil {
		return nil, shardErr(name, "open", ErrShardDamaged, err)
	}
	idx, err := openBleve(dir, timeout)
	if err != nil {
		return nil, shardErr(name, "open", ErrShardDamaged, err)
	}
	if m := idx.Mapping(); !m.FieldMappingForPath(fieldHit).Store || !m.FieldMappingForPath(fieldEvents).Index ||
		m.FieldMappingForPath(fieldText).Analyzer != TermsAnalyzer {
		_ = idx.Close()
		return nil, shardErr(name, "open", ErrShardFormat, nil)
	}
	// bleve opens a shard whose segments are cut short as an empty index;
	// BuildShards never writes an empty shard, so none is ever valid.
	if n, err := idx.DocCount(); err != nil || n == 0 {
		_ = idx.Close()
		if err == nil {
			err = errors.New("holds no documents")
		}
		return nil, shardErr(name, "open", ErrShardDamaged, err)
	}
	idx.SetName(name)
	return idx, nil
}

// openBleve opens a shard directory read-only. A damaged file can make
// bleve or bolt panic (bolt asserts on a cut root.bolt): that is an error
// here, never a crash. A fault on a mapped page that checkBoltSize did not
// foresee is made a panic too, while this goroutine opens the shard.
func openBleve(dir string, timeout time.Duration) (idx bleve.Index, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			idx, err = nil, fmt.Errorf("opening failed: %v", p)
		}
	}()
	return bleve.OpenUsing(dir, map[string]interface{}{
		"read_only": true, "bolt_timeout": timeout.String(),
	})
}

// Shards returns the names of the open shards, in the order given to Open.
func (r *Reader) Shards() []string { return append([]string(nil), r.shards...) }

// Close closes every shard, or hands them back to the Cache that opened
// them.
func (r *Reader) Close() error {
	if r.release != nil {
		if r.alias != nil {
			_ = r.alias.Close()
		}
		release := r.release
		r.idxs, r.release = nil, func() {}
		release()
		return nil
	}
	var first error
	for i, idx := range r.idxs {
		if err := idx.Close(); err != nil && first == nil {
			first = shardErr(r.shards[i], "close", ErrShardDamaged, err)
		}
	}
	r.idxs = nil
	if r.alias != nil {
		_ = r.alias.Close()
	}
	return first
}

// Count returns the number of documents (groups of events) in the shards,
// superseded ones included.
func (r *Reader) Count() (uint64, error) {
	var n uint64
	for i, idx := range r.idxs {
		c, err := idx.DocCount()
		if err != nil {
			return 0, shardErr(r.shards[i], "read", ErrShardDamaged, err)
		}
		n += c
	}
	return n, nil
}

// Lookup finds an event by id: the groups holding its key, then the event
// in its chunk. Superseded copies are skipped; of the live ones the copy in
// the latest shard wins.
func (r *Reader) Lookup(id core.EventID) (core.Hit, bool, error) {
	if len(r.idxs) == 0 {
		return core.Hit{}, false, nil
	}
	if r.chunks == nil {
		return core.Hit{}, false, ErrNoEvents
	}
	req := bleve.NewSearchRequestOptions(term(fieldEvents, eventKey(id), 1), 16*len(r.idxs), 0, false)
	res, err := r.alias.Search(req)
	if err != nil {
		return core.Hit{}, false, fmt.Errorf("index: lookup %s: %w", id, err)
	}
	loader := r.newHitLoader()
	defer loader.close()
	var best *core.Hit
	for _, dm := range res.Hits {
		if r.isSuperseded(nil, dm.Index, id) || (best != nil && r.order[dm.Index] < r.order[best.Origin]) {
			continue
		}
		h, ok, err := r.inGroup(loader, dm, id)
		if err != nil {
			return core.Hit{}, false, err
		}
		if ok {
			best = &h
		}
	}
	if best == nil {
		return core.Hit{}, false, nil
	}
	return *best, true, nil
}

// inGroup returns the hit of event id in a matched group, if it holds it.
func (r *Reader) inGroup(loader *hitLoader, dm *search.DocumentMatch, id core.EventID) (core.Hit, bool, error) {
	g, err := loader.load(dm)
	if err != nil {
		return core.Hit{}, false, err
	}
	ch, err := r.chunks(g.Chunk)
	if err != nil {
		return core.Hit{}, false, err
	}
	for _, p := range g.pos {
		if p >= ch.Len() {
			continue
		}
		got, err := ch.ID(p)
		if err != nil {
			return core.Hit{}, false, err
		}
		if got != id {
			continue
		}
		e, err := ch.Event(p)
		if err != nil {
			return core.Hit{}, false, err
		}
		h := g.Hit
		h.EventID, h.EventType, h.Role, h.Timestamp, h.Score = id, e.Type, e.Role, e.Timestamp, 1
		return h, true, nil
	}
	return core.Hit{}, false, nil
}

func (r *Reader) isSuperseded(extra func(string, core.EventID) bool, shard string, id core.EventID) bool {
	return (r.superseded != nil && r.superseded(shard, id)) || (extra != nil && extra(shard, id))
}

// VerifyShard checks every file of a shard against the checksums recorded
// when it was sealed (m.Sums; a shard sealed before checksums existed has
// none), then opens it as Verify does. Any failure is a *ShardError.
func VerifyShard(root string, m ShardMeta) error {
	dir, err := shardDir(root, m.Name)
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return shardErr(m.Name, "verify", ErrShardMissing, err)
	}
	list, err := readSums(dir, m.Sums)
	if err == nil {
		err = checkSums(dir, list, true)
	}
	if err != nil && !errors.Is(err, errNoSums) {
		return shardErr(m.Name, "verify", ErrShardDamaged, err)
	}
	return Verify(root, m.Name, m.Docs)
}

// Verify opens a shard read-only and checks that it indexes wantDocs
// events (the distinct keys of its ev field); any failure is a *ShardError.
func Verify(root, shard string, wantDocs int) error {
	idx, err := openShard(root, shard, DefaultBoltTimeout)
	if err != nil {
		return err
	}
	n, err := countEvents(idx)
	cerr := idx.Close()
	switch {
	case err != nil:
		return shardErr(shard, "verify", ErrShardDamaged, err)
	case n != wantDocs:
		return shardErr(shard, "verify", ErrShardDamaged,
			fmt.Errorf("indexes %d events, want %d", n, wantDocs))
	case cerr != nil:
		return shardErr(shard, "verify", ErrShardDamaged, cerr)
	}
	return nil
}

// shardEvents counts the events of a shard from the frequency of
// eventTerm: the document count of BM25.
func (r *Reader) shardEvents(i int, idx bleve.Index) (uint64, error) {
	if n, ok := r.counts[i].get(eventTerm); ok {
		return n, nil
	}
	adv, err := idx.Advanced()
	if err != nil {
		return 0, err
	}
	rdr, err := adv.Reader()
	if err != nil {
		return 0, err
	}
	defer rdr.Close()
	return r.shardFreq(i, rdr, eventTerm)
}

// countEvents counts the event keys a shard indexes.
func countEvents(idx bleve.Index) (int, error) {
	dict, err := idx.FieldDict(fieldEvents)
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		e, err := dict.Next()
		if err != nil {
			_ = dict.Close()
			return 0, err
		}
		if e == nil {
			break
		}
		n++
	}
	return n, dict.Close()
}
