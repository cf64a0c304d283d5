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
	KeptGenerations int   `json:"kept_generations"`
	ObjectsKept     int   `json:"objects_kept"`
	ObjectsRemoved  int   `json:"objects_removed"`
	BytesRemoved    int64 `json:"bytes_removed"`
	ShardsRemoved   int   `json:"shards_removed"`
	// VectorSetsRemoved counts semantic vector sets no kept generation names.
	VectorSetsRemoved int `json:"vector_sets_removed"`
}

// GC keeps the active generation and the reflog entries newer than keep,
// expires older reflog entries, and deletes the objects and index shards
// that no kept generation reaches. Generations older than the last forget
// (or its purge from the index, see ingest.Purge) are expired whatever
// their age: they still reach what the user forgot. It holds the writer
// lock throughout.
func GC(ctx context.Context, home string, keep time.Duration, now time.Time, busy func()) (*GCReport, error) {
	w, err := store.OpenWriter(ctx, home, busy)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	s, rs := w.Objects, w.Refs
	active, err := rs.Get(refs.Active)
	if err != nil {
		return &GCReport{}, nil // nothing imported: nothing to collect
	}
	cutoff := now.Add(-keep)
	since, err := forgottenSince(s, active)
	if err != nil {
		return nil, err
	}
	keepEntry := func(e refs.LogEntry) bool {
		if e.New == active {
			return true
		}
		if e.Time.Before(cutoff) {
			return false
		}
		if since == 0 {
			return true
		}
		g, err := refs.Load(s, e.New)
		return err == nil && g.Number >= since
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
		if err := walk.reach(g); err != nil {
			return nil, err
		}
		if gen, err := refs.Load(s, g); err == nil {
			for _, sh := range gen.Shards {
				shards[sh.Name] = true
			}
		}
	}
	rep := &GCReport{KeptGenerations: len(gens), ObjectsKept: len(seen)}
	err = s.Walk(func(id objects.ID) error {
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
		if e.IsDir() && !shards[e.Name()] && !index.InFlight(store.At(home).Index(), e.Name()) {
			if err := os.RemoveAll(filepath.Join(store.At(home).Index(), e.Name())); err == nil {
				rep.ShardsRemoved++
			}
		}
	}
	return rep, nil
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
