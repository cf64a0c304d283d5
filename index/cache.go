package index

import (
	"sync"

	"github.com/blevesearch/bleve/v2"
)

// Cache keeps read-only shards open across Readers, for a long-running
// process that reads one generation after another (the MCP server).
// Opening a shard costs about a millisecond; a new generation reuses most
// of the previous one's shards, so a Reader of the next generation opens
// only the shards it adds.
//
// A shard stays open while a Reader from Open holds it, or while it is in
// the set last given to Keep (the active generation's shards). Any other
// shard is closed as soon as its last Reader closes, so what stays open is
// bounded by the kept set plus the shards of Readers still in use. A Cache
// is safe for concurrent use.
type Cache struct {
	root string
	opts []Option

	mu     sync.Mutex
	shards map[string]*cachedShard
	keep   map[string]bool
}

type cachedShard struct {
	name  string
	idx   bleve.Index
	sizes map[string]int64 // its files' sizes when opened (see fileSizes)
	// counts are its sums of term frequencies, kept for the Readers of
	// later generations (the text terms' document frequencies, its events).
	counts *termCounts
	refs   int  // open Readers holding the shard
	gone   bool // replaced in shards: close when the last Reader lets go
}

// NewCache returns a cache of the shards under root; opts apply to every
// shard it opens (WithBoltTimeout) and are the defaults of its Readers.
func NewCache(root string, opts ...Option) *Cache {
	return &Cache{root: root, opts: opts, shards: map[string]*cachedShard{}, keep: map[string]bool{}}
}

// Open returns a Reader of the named shards (listed oldest first, as for
// Open), opening only those the cache does not hold. Closing the Reader
// hands the shards back.
func (c *Cache) Open(shards []string, opts ...Option) (*Reader, error) {
	cfg := readerConfig{boltTimeout: DefaultBoltTimeout}
	for _, o := range append(append([]Option(nil), c.opts...), opts...) {
		o(&cfg)
	}
	r, err := newReader(cfg, len(shards))
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var held []*cachedShard
	for _, name := range shards {
		if _, dup := r.order[name]; dup {
			continue
		}
		cs := c.shards[name]
		if cs != nil && !unchanged(cs.sizes) {
			// A file was cut or removed under the open shard: its mapped
			// pages may fault. Open it anew, which checks it again.
			c.retireLocked(cs)
			cs = nil
		}
		if cs == nil {
			idx, err := openShard(c.root, name, cfg.boltTimeout)
			if err != nil {
				if r.skip(cfg, err) {
					continue
				}
				c.releaseLocked(held)
				return nil, err
			}
			dir, _ := shardDir(c.root, name) // openShard checked the name
			cs = &cachedShard{name: name, idx: idx, sizes: fileSizes(dir), counts: &termCounts{}}
			c.shards[name] = cs
		}
		cs.refs++
		held = append(held, cs)
		r.add(name, cs.idx, cs.counts)
	}
	if err := r.join(); err != nil {
		c.releaseLocked(held)
		return nil, err
	}
	var once sync.Once
	r.release = func() { once.Do(func() { c.release(held) }) }
	return r, nil
}

// Keep sets the shards to keep open when no Reader holds them: the active
// generation's. Shards outside the set that no Reader holds are closed now.
func (c *Cache) Keep(shards []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep = make(map[string]bool, len(shards))
	for _, s := range shards {
		c.keep[s] = true
	}
	for name, cs := range c.shards {
		if cs.refs == 0 && !c.keep[name] {
			c.closeLocked(cs)
		}
	}
}

// Len returns the number of open shards.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.shards)
}

// Close closes every shard the cache holds; Readers still open must not
// be used afterwards.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for name, cs := range c.shards {
		if err := cs.idx.Close(); err != nil && first == nil {
			first = shardErr(name, "close", ErrShardDamaged, err)
		}
		delete(c.shards, name)
	}
	c.keep = map[string]bool{}
	return first
}

func (c *Cache) release(held []*cachedShard) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.releaseLocked(held)
}

func (c *Cache) releaseLocked(held []*cachedShard) {
	for _, cs := range held {
		if cs.refs--; cs.refs <= 0 && (cs.gone || !c.keep[cs.name]) {
			c.closeLocked(cs)
		}
	}
}

// retireLocked takes cs out of the cache; it is closed now if no Reader
// holds it, else when the last one is closed.
func (c *Cache) retireLocked(cs *cachedShard) {
	delete(c.shards, cs.name)
	cs.gone = true
	if cs.refs <= 0 {
		_ = cs.idx.Close()
	}
}

func (c *Cache) closeLocked(cs *cachedShard) {
	_ = cs.idx.Close()
	if c.shards[cs.name] == cs {
		delete(c.shards, cs.name)
	}
}
