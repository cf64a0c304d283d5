package workspace

import (
	"context"
	"sync"
	"time"
)

// DefaultCacheMaxAge is how long a snapshot is served as is when the
// configuration names no cache_max_age_ms.
const DefaultCacheMaxAge = 30 * time.Second

// Cache keeps the last snapshot of each root and budget.
type Cache struct {
	MaxAge time.Duration
	mu     sync.Mutex
	byKey  map[cacheKey]*Object
	now    func() time.Time
}

type cacheKey struct {
	root   string
	budget int
}

// NewCache returns a cache that serves snapshots younger than maxAge (a
// negative maxAge disables it).
func NewCache(maxAge time.Duration) *Cache {
	return &Cache{MaxAge: maxAge, byKey: map[cacheKey]*Object{}, now: time.Now}
}

// Get returns the snapshot of opts.Root when one is younger than MaxAge,
// else builds one. The returned object is shared: callers never change it.
func (c *Cache) Get(ctx context.Context, opts Options) (*Object, error) {
	if opts.TokenBudget <= 0 {
		opts.TokenBudget = DefaultTokenBudget
	}
	key := cacheKey{root: opts.Root, budget: opts.TokenBudget}
	c.mu.Lock()
	o := c.byKey[key]
	c.mu.Unlock()
	if o != nil && c.MaxAge >= 0 && c.now().Sub(o.Meta.GeneratedAt) < c.MaxAge {
		cp := *o
		cp.Meta.Cached = true
		return &cp, nil
	}
	o, err := Build(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.byKey[key] = o
	c.mu.Unlock()
	return o, nil
}

// Invalidate drops every snapshot (a save changes the sessions part).
func (c *Cache) Invalidate() {
	c.mu.Lock()
	clear(c.byKey)
	c.mu.Unlock()
}
