package maint

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"ctx/core"
	"ctx/index"
	"ctx/objects"
	"ctx/refs"
	"ctx/semantic"
	"ctx/store"
)

// GCReport is the gc read model.
type GCReport struct {
	KeptGenerations int `json:"kept_generations"`
	// ExpiredGenerations counts the reflog entries this gc expired.
	ExpiredGenerations int   `json:"expired_generations"`
	ObjectsKept        int   `json:"objects_kept"`
	ObjectsRemoved     int   `json:"objects_removed"`
	BytesRemoved       int64 `json:"bytes_removed"`
	ShardsRemoved      int   `json:"shards_removed"`
	// VectorSetsRemoved counts semantic vector sets no kept generation names.
	VectorSetsRemoved int `json:"vector_sets_removed"`
}

// What gc keeps of the generations the reflog names, besides the active
// one: every generation of the last KeepEvery, the newest of each hour of
// the last KeepHourly, and the newest of each day (UTC) within keep; all
// of it no older than keep. The daemon publishes a generation each time
// an agent writes, thousands a day, each with index shards of its own
// that a merge soon replaces: kept for two weeks, a busy store's shards
// outgrew its history many times over.
const (
	KeepEvery  = 10 * time.Minute
	KeepHourly = 24 * time.Hour
	// DefaultKeep is keep when the user gives none.
	DefaultKeep = 14 * 24 * time.Hour
)

// shardGrace is how old an index shard that no generation ever listed
// must be before gc removes it: a merge builds its shard under its final
// name without the writer lock, and publishes it when it gets the lock
// (which an import may hold for minutes). Removed sooner, it would only
// make that merge fail and start again.
const shardGrace = 10 * time.Minute

// retained reports whether the reflog entry log[i] (oldest first) is one
// the retention above keeps, seen at now.
func retained(log []refs.LogEntry, i int, now time.Time, keep time.Duration) bool {
	age := now.Sub(log[i].Time)
	switch {
	case age > keep:
		return false
	case age <= min(keep, KeepEvery):
		return true
	}
	// The newest entry of its bucket: the one after it is in another
	// bucket (or in a tier that keeps all).
	bucket := func(t time.Time) int64 {
		if now.Sub(t) <= KeepHourly {
			return t.Unix() / 3600
		}
		return -1 - t.Unix()/86400 // days apart from hours
	}
	return i == len(log)-1 || bucket(log[i+1].Time) != bucket(log[i].Time) || now.Sub(log[i+1].Time) <= min(keep, KeepEvery)
}

// GC keeps the active generation and the reflog entries the retention
// above keeps, expires the other entries, and deletes the objects and
// index shards that no kept generation reaches. Generations older than the
// last forget (or its purge from the index, see ingest.Purge) are expired
// whatever their age: they still reach what the user forgot. It holds the
// writer lock throughout; when ctx ends it stops where it is, having
// removed only what nothing kept reaches.
func GC(ctx context.Context, home string, keep time.Duration, now time.Time, busy func()) (*GCReport, error) {
	w, err := store.OpenWriter(ctx, home, busy)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, rs := w.Objects, w.Refs
	active, err := rs.Get(refs.Active)
	if err != nil {
		return &GCReport{}, nil // nothing imported: nothing to collect
	}
	since, err := forgottenSince(s, active)
	if err != nil {
		return nil, err
	}
	// The shards the expired generations list were published: gc removes
	// them whatever their age (one may hold a session the user forgot).
	// Only a shard no generation ever listed gets shardGrace.
	expired, published := 0, map[string]bool{}
	expire := func(id objects.ID) bool {
		expired++
		if g, err := refs.Load(s, id); err == nil {
			for _, sh := range g.Shards {
				published[sh.Name] = true
			}
		}
		return false
	}
	keepEntry := func(log []refs.LogEntry, i int) bool {
		e := log[i]
		if e.New == active {
			return true
		}
		if !retained(log, i, now, keep) {
			return expire(e.New)
		}
		if since == 0 {
			return true
		}
		if g, err := refs.Load(s, e.New); err == nil && g.Number >= since {
			return true
		}
		return expire(e.New)
	}
	if err := rs.ExpireLog(refs.Active, keepEntry); err != nil {
		return nil, err
	}
	gens, _, err := kept(rs)
	if err != nil {
		return nil, err
	}
	walk := newWalker(s, func(objects.ID, error) {}, false)
	seen := walk.seen
	shards := map[string]bool{}
	for _, g := range gens {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := walk.reach(g); err != nil {
			return nil, err
		}
		if gen, err := refs.Load(s, g); err == nil {
			for _, sh := range gen.Shards {
				shards[sh.Name] = true
			}
		}
	}
	rep := &GCReport{KeptGenerations: len(gens), ExpiredGenerations: expired, ObjectsKept: len(seen)}
	err = s.Walk(func(id objects.ID) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if seen[id] {
			return nil
		}
		size, _ := s.Size(id)
		if err := s.Delete(id); err != nil {
			return err
		}
		rep.ObjectsRemoved++
		rep.BytesRemoved += size
		return nil
	})
	if err != nil {
		return nil, err
	}
	_ = s.CleanTemp()
	if n, err := semantic.Sweep(store.At(home).Vectors(), gens); err == nil {
		rep.VectorSetsRemoved = n
	}
	entries, _ := os.ReadDir(store.At(home).Index())
	for _, e := range entries {
		if ctx.Err() != nil {
			break // what is left is removed next time
		}
		if e.IsDir() && !shards[e.Name()] && !index.InFlight(store.At(home).Index(), e.Name()) &&
			(published[e.Name()] || !recent(e, now)) {
			if err := os.RemoveAll(filepath.Join(store.At(home).Index(), e.Name())); err == nil {
				rep.ShardsRemoved++
			}
		}
	}
	return rep, nil
}

// recent reports whether an index directory changed within shardGrace
// of now (or cannot be told): it may be a merge's shard, built and not
// published yet.
func recent(e os.DirEntry, now time.Time) bool {
	fi, err := e.Info()
	return err != nil || now.Sub(fi.ModTime()) < shardGrace
}

// forgottenSince is the first generation that holds nothing of a session
// the active generation records as forgotten (0: none is).
func forgottenSince(s *objects.Store, active objects.ID) (uint64, error) {
	g, err := refs.Load(s, active)
	if err != nil {
		return 0, err
	}
	f, err := core.LoadForgotten(s, g.Forgotten)
	if err != nil {
		return 0, err
	}
	return f.Since(), nil
}
