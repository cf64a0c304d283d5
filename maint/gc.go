package maint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
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
// one: every generation of the last keepEvery, the newest of each hour of
// the last keepHourly, and the newest of each day (UTC) within keep; all
// of it no older than keep. The daemon publishes a generation each time
// an agent writes, thousands a day, each with index shards of its own
// that a merge soon replaces: kept for two weeks, a busy store's shards
// outgrew its history many times over.
const (
	keepEvery  = 10 * time.Minute
	keepHourly = 24 * time.Hour
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
	case age <= min(keep, keepEvery):
		return true
	}
	// The newest entry of its bucket: the one after it is in another
	// bucket (or in a tier that keeps all).
	bucket := func(t time.Time) int64 {
		if now.Sub(t) <= keepHourly {
			return t.Unix() / 3600
		}
		return -1 - t.Unix()/86400 // days apart from hours
	}
	return i == len(log)-1 || bucket(log[i+1].Time) != bucket(log[i].Time) || now.Sub(log[i+1].Time) <= min(keep, keepEvery)
}

// GCOptions tune GC.
type GCOptions struct {
	// Keep is the horizon of the retention above.
	Keep time.Duration
	// Now is the time the retention is seen at (time.Now when zero).
	Now time.Time
	// Busy is called when another writer holds the store (see
	// store.OpenWriter).
	Busy func()
	// Gate, when set, is held with the writer lock (the daemon's, see
	// ingest.Options.Gate).
	Gate sync.Locker
}

// GC keeps the active generation and the reflog entries the retention
// above keeps, expires the other entries, and deletes the objects and
// index shards that no kept generation reaches. Generations older than the
// last forget (or its purge from the index, see ingest.Purge) are expired
// whatever their age: they still reach what the user forgot.
//
// It holds the writer lock to expire the reflog, and again to delete
// objects, but not while it walks the kept generations, which is most of
// its time (1.7 of 2.5 s at a million events and 570 generations):
// generations and objects are immutable, and only a gc deletes. Under the
// lock again it walks the generations published meanwhile, of which it
// has read all but their new objects, since an object reaches the same
// objects wherever it is named. An import that found an object present
// names it without writing it, so objects go under the lock; index shards
// after it. When ctx ends it stops, having removed only what nothing kept
// reaches.
func GC(ctx context.Context, home string, o GCOptions) (*GCReport, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	rep := &GCReport{}
	var expired []objects.ID
	err := locked(ctx, home, o, func(w *store.Writer) (err error) {
		expired, err = expire(w, o)
		return err
	})
	if errors.Is(err, refs.ErrNoRef) {
		return rep, nil // nothing imported: nothing to collect
	}
	if err != nil {
		return nil, err
	}
	ro, err := store.OpenReadOnly(home)
	if err != nil {
		return nil, err
	}
	walk := newWalker(ro.Objects, func(objects.ID, error) {}, false)
	mark := func(rs *refs.Refs) ([]objects.ID, error) {
		gens, _, err := kept(rs)
		if err != nil {
			return nil, err
		}
		for _, g := range gens {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := walk.reach(g); err != nil {
				return nil, err
			}
		}
		return gens, nil
	}
	if _, err := mark(ro.Refs); err != nil {
		return nil, err
	}
	// The shards the expired generations list were published: gc removes
	// them whatever their age (one may hold a session the user forgot).
	// Only a shard no generation ever listed gets shardGrace.
	published := map[string]bool{}
	for _, id := range expired {
		if g, err := refs.Load(ro.Objects, id); err == nil {
			for _, sh := range g.Shards {
				published[sh.Name] = true
			}
		}
	}
	// The objects no kept generation reaches so far: what gc may delete,
	// under the lock, of those the generations published since do not
	// reach either. An object written after this listing is not among
	// them.
	var unseen []objects.ID
	err = ro.Objects.Walk(func(id objects.ID) error {
		if !walk.seen[id] {
			unseen = append(unseen, id)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	// They go in rounds of at most sweepRound, each under the lock after
	// walking what was published since, so that a long backlog (the first
	// gc after weeks of generations) never holds the lock for long.
	var doomed []string
	for done := false; !done; {
		err = locked(ctx, home, o, func(w *store.Writer) error {
			gens, err := mark(w.Refs)
			if err != nil {
				return err
			}
			n := min(len(unseen), sweepRound)
			if err := deleteUnseen(ctx, w.Objects, unseen[:n], walk, rep); err != nil {
				return err
			}
			if unseen = unseen[n:]; len(unseen) > 0 {
				return nil
			}
			done = true
			rep.KeptGenerations, rep.ExpiredGenerations, rep.ObjectsKept = len(gens), len(expired), len(walk.seen)
			doomed = sweep(w, gens, walk, published, o.Now, rep)
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !done && afterRound != nil {
			afterRound()
		}
	}
	// No writer names a shard gc found unlisted and not new (a build is
	// never named after a shard that was): it goes without the lock.
	for _, dir := range doomed {
		if ctx.Err() != nil {
			break // what is left is removed next time
		}
		if err := os.RemoveAll(dir); err == nil {
			rep.ShardsRemoved++
		}
	}
	return rep, nil
}

// locked runs fn holding o.Gate and the writer lock of home.
func locked(ctx context.Context, home string, o GCOptions, fn func(*store.Writer) error) error {
	if o.Gate != nil {
		o.Gate.Lock()
		defer o.Gate.Unlock()
	}
	w, err := store.OpenWriter(ctx, home, o.Busy)
	if err != nil {
		return err
	}
	defer w.Close()
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn(w)
}

// expire drops the reflog entries the retention does not keep, and
// returns their generations; refs.ErrNoRef when nothing was imported.
func expire(w *store.Writer, o GCOptions) ([]objects.ID, error) {
	s, rs := w.Objects, w.Refs
	active, err := rs.Get(refs.Active)
	if err != nil {
		return nil, err
	}
	since, err := forgottenSince(s, active)
	if err != nil {
		return nil, err
	}
	var expired []objects.ID
	keepEntry := func(log []refs.LogEntry, i int) bool {
		e := log[i]
		switch {
		case e.New == active:
			return true
		case !retained(log, i, o.Now, o.Keep):
		case since == 0:
			return true
		default:
			if g, err := refs.Load(s, e.New); err == nil && g.Number >= since {
				return true
			}
		}
		expired = append(expired, e.New)
		return false
	}
	if err := rs.ExpireLog(refs.Active, keepEntry); err != nil {
		return nil, err
	}
	return expired, nil
}

// sweepRound is the most objects gc deletes in one hold of the writer
// lock (about 0.25 s of it here).
var sweepRound = 4096

// afterRound, when set (by the tests), runs between two rounds.
var afterRound func()

// deleteUnseen deletes the objects of ids that walk has not seen.
func deleteUnseen(ctx context.Context, s *objects.Store, ids []objects.ID, walk *walker, rep *GCReport) error {
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		if walk.seen[id] {
			continue
		}
		size, _ := s.Size(id)
		if err := s.Delete(id); err != nil {
			return err
		}
		rep.ObjectsRemoved++
		rep.BytesRemoved += size
	}
	return nil
}

// sweep cleans the objects' temporary files, deletes the vector sets gens
// do not name, and returns the directories of the index shards they do not
// list (see shardGrace).
func sweep(w *store.Writer, gens []objects.ID, walk *walker, published map[string]bool, now time.Time, rep *GCReport) []string {
	_ = w.Objects.CleanTemp()
	if n, err := semantic.Sweep(w.Vectors(), gens); err == nil {
		rep.VectorSetsRemoved = n
	}
	entries, _ := os.ReadDir(w.Index())
	var doomed []string
	for _, e := range entries {
		if e.IsDir() && !walk.shards[e.Name()] && !index.InFlight(w.Index(), e.Name()) &&
			(published[e.Name()] || !recent(e, now)) {
			doomed = append(doomed, filepath.Join(w.Index(), e.Name()))
		}
	}
	return doomed
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
