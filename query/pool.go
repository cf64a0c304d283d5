package query

import (
	"bytes"
	"os"
	"sync"

	"ctx/index"
	"ctx/objects"
	"ctx/store"
)

// Pool keeps the Reader of the active generation open across the calls of
// a long-running reader (the MCP server): its tree, tombstones, decoded
// chunks and index shards are loaded once per generation instead of once
// per call. Each Acquire checks refs/active (one small file read) and
// re-pins when it moved; shards are shared between generations through an
// index.Cache, and the shards and objects of a superseded generation are
// released once its last call returns. A Reader whose index left out a
// shard it could not open is not reused: the next call opens the shards
// again (through the cache, so only the missing ones), so a shard that
// failed for a passing reason, or was rebuilt, is searched again. A Pool
// is safe for concurrent use.
type Pool struct {
	home   string
	shards *index.Cache

	mu     sync.Mutex
	cur    *pooled
	closed bool
}

// pooled is one Reader and the calls holding it (the pool's own reference
// counts as one while the Reader is current).
type pooled struct {
	r    *Reader
	refs int
}

// NewPool returns a pool of Readers of the store in home. It touches
// nothing until the first Acquire.
func NewPool(home string) *Pool {
	return &Pool{home: home, shards: index.NewCache(store.At(home).Index())}
}

// Acquire returns a Reader pinned to the active generation and the
// function that releases it; the Reader must not be used after release.
// A store with nothing published is CodeNoHistory, as for Open.
func (p *Pool) Acquire() (*Reader, func(), error) {
	id, err := readActive(p.home)
	if err != nil {
		return nil, nil, err
	}
	p.mu.Lock()
	if p.cur != nil && p.cur.r.id == id && !p.closed && !p.cur.r.indexPartial() {
		pr := p.cur
		pr.refs++
		p.mu.Unlock()
		return pr.r, p.releaser(pr), nil
	}
	p.mu.Unlock()

	r, err := Open(p.home)
	if err != nil {
		return nil, nil, err
	}
	r.shards = p.shards
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur != nil && p.cur.r.gen.Number < r.gen.Number {
		r.inherit(p.cur.r)
	}
	switch {
	case p.closed:
		r.shards = nil
		return r, func() { _ = r.Close() }, nil
	case p.cur != nil && p.cur.r.id == r.id && !p.cur.r.indexPartial():
		// Another call pinned the same generation meanwhile.
		_ = r.Close()
		p.cur.refs++
		return p.cur.r, p.releaser(p.cur), nil
	case p.cur != nil && p.cur.r.gen.Number > r.gen.Number:
		// refs/active moved on while this call opened an older one: the
		// call uses it once, the pool keeps the newer.
		pr := &pooled{r: r, refs: 1}
		return r, p.releaser(pr), nil
	}
	pr := &pooled{r: r, refs: 2}
	old := p.cur
	p.cur = pr
	names := make([]string, len(r.gen.Shards))
	for i, s := range r.gen.Shards {
		names[i] = s.Name
	}
	p.shards.Keep(names)
	if old != nil {
		p.unrefLocked(old)
	}
	return r, p.releaser(pr), nil
}

func (p *Pool) releaser(pr *pooled) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.unrefLocked(pr)
		})
	}
}

func (p *Pool) unrefLocked(pr *pooled) {
	if pr.refs--; pr.refs == 0 {
		_ = pr.r.Close()
	}
}

// OpenShards returns how many index shards the pool holds open.
func (p *Pool) OpenShards() int { return p.shards.Len() }

// Close releases the current Reader and closes the shards no call holds;
// Readers still acquired stay usable until released.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	if p.cur != nil {
		p.unrefLocked(p.cur)
		p.cur = nil
	}
	p.shards.Keep(nil)
	return nil
}

// readActive reads refs/active without opening (or creating) anything.
func readActive(home string) (objects.ID, error) {
	b, err := os.ReadFile(store.At(home).ActiveRef())
	if err != nil {
		return objects.ID{}, Errorf(CodeNoHistory, "nothing has been imported yet: run ctx import")
	}
	id, err := objects.ParseID(string(bytes.TrimSpace(b)))
	if err != nil {
		return objects.ID{}, &Error{Code: CodeCorrupt, Message: "the store is damaged (run ctx verify)", Err: err}
	}
	return id, nil
}
