package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"ctx/ingest"
	"ctx/maint"
	"ctx/refs"
	"ctx/store"
	"ctx/wake"
)

// serve runs the daemon until ctx ends: the socket, the watcher, the pass
// loop and the event loop.
func (d *daemon) serve(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("daemon: watcher: %w", err)
	}
	defer w.Close()
	if err := w.Add(d.opts.Home); err != nil {
		return fmt.Errorf("daemon: watch %s: %w", d.opts.Home, err)
	}
	var wg sync.WaitGroup
	d.wg = &wg
	if err := d.listen(ctx); err != nil {
		return err
	}
	defer d.closeListener()
	if old, err := filepath.Glob(filepath.Join(d.opts.Home, markerPrefix+"*")); err == nil {
		for _, m := range old { // left by a daemon that died while a search settled
			_ = os.Remove(m)
		}
	}
	d.log.Printf("daemon started: pid %d, store %s", os.Getpid(), d.opts.Home)
	wg.Add(4)
	go func() {
		defer wg.Done()
		d.passLoop(ctx, w)
	}()
	go func() {
		defer wg.Done()
		onKick(ctx, d.collectKick, func() { d.collect(ctx) })
	}()
	go func() {
		defer wg.Done()
		d.mergeLoop(ctx)
	}()
	go func() {
		defer wg.Done()
		d.repairLoop(ctx)
	}()
	d.request()
	d.kickRepair() // a shard damaged while no daemon ran
	d.eventLoop(ctx, w)
	d.closeListener()
	wg.Wait()
	d.log.Printf("daemon stopped")
	return nil
}

// eventLoop batches file events into pass requests, runs the slow rescan
// and recreates a removed socket. It blocks until ctx ends.
func (d *daemon) eventLoop(ctx context.Context, w *fsnotify.Watcher) {
	batch := time.NewTimer(time.Hour)
	batch.Stop()
	armed := false
	tick := time.NewTicker(d.opts.Rescan)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if d.marked(ev) {
				continue // a search's settle marker: every earlier event is noted
			}
			if d.onEvent(ctx, w, ev) && !armed {
				batch.Reset(d.opts.Debounce)
				armed = true
			}
		case err := <-w.Errors:
			d.log.Printf("watch error: %v; rediscovering", err)
			d.mu.Lock()
			d.rewatch, d.lost = true, true
			d.mu.Unlock()
			d.request() // an overflow lost events: look at everything
		case <-batch.C:
			armed = false
			d.request()
		case <-tick.C:
			if !d.ownsStore() {
				// The store was deleted (or its lock replaced): nothing
				// is left to keep fresh, and another daemon may take it.
				d.log.Printf("store %s removed; stopping", d.opts.Home)
				d.stop()
				return
			}
			d.ensureSocket(ctx)
			d.mu.Lock()
			d.rewatch = true
			d.mu.Unlock()
			d.request()
		}
	}
}

// onEvent handles one file event and reports whether it wants a pass: a
// removed socket is recreated at once; other events under $CTX_HOME are
// the store's own writes.
func (d *daemon) onEvent(ctx context.Context, w *fsnotify.Watcher, ev fsnotify.Event) bool {
	if ev.Name == store.At(d.opts.Home).Socket() && (ev.Op.Has(fsnotify.Remove) || ev.Op.Has(fsnotify.Rename)) {
		d.ensureSocket(ctx)
		return false
	}
	if !d.relevant(w, ev) {
		return false
	}
	d.noteEvent()
	return true
}

func (d *daemon) noteEvent() { d.noteChange(time.Now()) }

// noteChange records a source change made at t that is not yet published:
// a file event (at the time it arrives) or a file a pass found changed (at
// its modification time). The lag counts from the oldest one.
func (d *daemon) noteChange(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending.IsZero() || t.Before(d.pending) {
		d.pending = t
	}
	if d.passing && (d.next.IsZero() || t.Before(d.next)) {
		d.next = t
	}
}

// passLoop runs one pass per kick until ctx ends. Between passes, when no
// request waits, it builds the semantic vectors the passes deferred and
// returns unused memory to the system; a request interrupts that. Shard
// merging runs beside the passes (mergeLoop).
func (d *daemon) passLoop(ctx context.Context, w *fsnotify.Watcher) {
	due, first := false, true // maintenance is owed since the last pass
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.kick:
		default:
			if due {
				due = !d.maintain(ctx)
				continue
			}
			select {
			case <-ctx.Done():
				return
			case <-d.kick:
			}
		}
		d.mu.Lock()
		target, rewatch, lost := d.requested, d.rewatch, d.lost
		var named func(string) bool
		if set, dirs := d.named, d.fileDirs; d.lastOK && d.watchedAll && !rewatch && !lost && !d.whole {
			// A file outside the watched directories (found since they
			// were planned) raises no event: it counts as named.
			named = func(path string) bool { return set[path] || !dirs[filepath.Dir(path)] }
		}
		d.rewatch, d.named, d.whole = false, nil, false
		d.passing, d.next = true, time.Time{}
		d.mu.Unlock()
		res := d.pass(ctx, w, rewatch, named)
		if ctx.Err() != nil {
			return
		}
		d.mu.Lock()
		d.served, d.last, d.lastAt, d.lastOK = target, res, time.Now(), res.Err == nil
		if res.Err == nil && lost && rewatch {
			d.lost = false // this pass rediscovered and looked at everything
		}
		if res.Err == nil {
			// Published (or nothing to publish): what is left unpublished
			// is what changed after the pass began. A failed pass keeps
			// the oldest change.
			d.pending = d.next
		}
		d.passing, d.next = false, time.Time{}
		close(d.done)
		d.done = make(chan struct{})
		d.mu.Unlock()
		// Maintenance is owed after a publish, and once at start (the
		// active generation may lack vectors or have too many shards).
		due = due || (res.Err == nil && (res.Published || first))
		if res.Published || first {
			select {
			case d.mergeKick <- struct{}{}:
			default:
			}
		}
		first = false
	}
}

// mergeLoop merges small shards beside the passes (ingest.Merge), after
// each publish, until nothing is left to merge or ctx ends.
func (d *daemon) mergeLoop(ctx context.Context) {
	onKick(ctx, d.mergeKick, func() {
		merged := false
		for ctx.Err() == nil {
			rep, err := ingest.Merge(ctx, d.upkeep())
			if err != nil {
				if ctx.Err() == nil {
					d.log.Printf("merge failed: %v", err)
				}
				break
			}
			if !rep.Published {
				break
			}
			merged = true
			d.mu.Lock()
			d.merged = rep.Generation.Number
			d.mu.Unlock()
			d.log.Printf("generation %d: %d small shards merged", rep.Generation.Number, rep.ShardsMerged)
		}
		if merged {
			debug.FreeOSMemory() // the merges' heap is garbage now
		}
	})
}

// upkeep are the options of the writes beside the passes (merge, repair,
// vectors): they wait their turn at the writer lock.
func (d *daemon) upkeep() ingest.Options {
	return ingest.Options{Home: d.opts.Home, Env: d.opts.Env, Version: d.opts.Version, Busy: func() {}, Gate: &d.gate}
}

// maintain runs ingest.BuildVectors until it finishes or a request comes,
// and reports whether it finished (false: it is still owed); then it asks
// for a gc (collect).
func (d *daemon) maintain(ctx context.Context) bool {
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d.mu.Lock()
	d.interrupt = cancel
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.interrupt = nil
		d.mu.Unlock()
	}()
	if len(d.kick) > 0 { // a request came before interrupt was set
		return false
	}
	rep, err := ingest.BuildVectors(mctx, d.upkeep()) // a merge publishing: wait for it
	if mctx.Err() != nil && ctx.Err() == nil {
		return false // interrupted by new work; run again after it
	}
	if err != nil {
		d.log.Printf("vectors: %v", err)
	}
	if rep != nil && rep.VectorsErr != nil {
		d.log.Printf("vectors: %v", rep.VectorsErr)
	}
	select {
	case d.collectKick <- struct{}{}:
	default:
	}
	debug.FreeOSMemory() // idle now: give back what the import's heap grew to
	return true
}

// collect runs gc (maint.GC) beside the passes when the last one ended
// Collect ago or more, or never ran: each change an agent writes is a
// generation, with index shards a merge soon replaces, and gc's retention
// keeps of them only the last minutes' and one an hour, then one a day.
// gc takes the writer lock (and the gate) briefly, to expire the reflog
// and for each round of deletes, and walks the kept generations without
// it, so passes go on meanwhile.
//
// Before it, the shards that still hold events of a forgotten session are
// re-indexed without them (ingest.Purge, which holds the writer lock only
// to pick the shards and to publish; nothing to do unless a session was
// forgotten), so that what ctx gc does by hand the daemon does too: after
// its gc no byte of the session is left. Then the tombstones no copy needs
// are dropped (ingest.SweepTombstones, which counts without the lock).
func (d *daemon) collect(ctx context.Context) {
	if d.opts.Collect < 0 || !d.collected.IsZero() && time.Since(d.collected) < d.opts.Collect {
		return
	}
	purged, perr := ingest.Purge(ctx, ingest.Options{Home: d.opts.Home, Env: d.opts.Env, Version: d.opts.Version,
		Busy: func() {}, Gate: &d.gate})
	if perr != nil && ctx.Err() == nil {
		d.log.Printf("purge of forgotten sessions: %v", perr)
	}
	if perr == nil {
		n, err := ingest.SweepTombstones(ctx, ingest.Options{Home: d.opts.Home, Env: d.opts.Env, Version: d.opts.Version,
			Busy: func() {}, Gate: &d.gate})
		switch {
		case err != nil && ctx.Err() == nil:
			d.log.Printf("tombstone sweep: %v", err)
		case n > 0:
			d.log.Printf("gc: %d tombstones dropped that no copy needed", n)
		}
	}
	rep, err := maint.GC(ctx, d.opts.Home, maint.GCOptions{Keep: d.opts.Keep, Busy: func() {}, Gate: &d.gate})
	if ctx.Err() != nil {
		return
	}
	d.collected = time.Now()
	c := &wake.Collected{At: d.collected, ShardsReindexed: purged}
	switch {
	case err != nil || perr != nil:
		if perr != nil {
			perr = fmt.Errorf("purge of forgotten sessions: %w", perr)
		}
		c.Error = errors.Join(perr, err).Error()
		if err != nil {
			d.log.Printf("gc: %v", err)
		}
	default:
		c.KeptGenerations, c.ExpiredGenerations, c.ObjectsRemoved, c.BytesRemoved, c.ShardsRemoved =
			rep.KeptGenerations, rep.ExpiredGenerations, rep.ObjectsRemoved, rep.BytesRemoved, rep.ShardsRemoved
		if purged > 0 {
			d.log.Printf("gc: %d shards re-indexed without forgotten sessions", purged)
		}
		if rep.ExpiredGenerations > 0 || rep.ObjectsRemoved > 0 || rep.ShardsRemoved > 0 {
			d.log.Printf("gc: %d generations kept, %d expired; %d objects (%d bytes) and %d shards removed",
				rep.KeptGenerations, rep.ExpiredGenerations, rep.ObjectsRemoved, rep.BytesRemoved, rep.ShardsRemoved)
		}
	}
	d.mu.Lock()
	d.gc = c
	d.mu.Unlock()
	debug.FreeOSMemory() // the walk's heap is garbage now
}

// pass rediscovers the sources (adding watches when asked) and imports;
// named, when set, says which files events named since the last pass
// (ingest.Options.Named).
func (d *daemon) pass(ctx context.Context, w *fsnotify.Watcher, rewatch bool, named func(string) bool) passResult {
	if !d.ownsStore() {
		d.log.Printf("store %s removed; stopping", d.opts.Home)
		d.stop() // importing now would recreate a store someone deleted
		return passResult{Err: errors.New("the store was removed")}
	}
	srcs, err := d.opts.Sources()
	if err != nil {
		d.log.Printf("sources: %v", err)
		return passResult{Generation: activeNumber(d.opts.Home), Err: err}
	}
	if rewatch {
		d.applyWatches(w, planWatches(d.opts.Env, srcs))
	}
	busy := func() { d.log.Printf("another import holds the store; waiting for it") }
	rep, err := ingest.Run(ctx, ingest.Options{Home: d.opts.Home, Env: d.opts.Env, Sources: srcs,
		Version: d.opts.Version, Redactor: d.opts.Redactor, Exclude: d.opts.Exclude, Busy: busy, Planned: d.planned,
		Deferred: true, Gate: &d.gate, Named: named})
	if err != nil {
		if ctx.Err() == nil {
			d.log.Printf("import failed: %v", err)
		}
		return passResult{Generation: activeNumber(d.opts.Home), Err: err}
	}
	res := passResult{Published: rep.Published, FilesRead: rep.FilesRead, EventsIndexed: rep.EventsIndexed}
	if rep.Published {
		res.Generation = rep.Generation.Number
		d.log.Printf("generation %d: %d files read (%d from where the last pass stopped), %d events indexed, %d problems", res.Generation,
			rep.FilesRead, rep.FilesContinued, rep.EventsIndexed, len(rep.Problems))
	} else {
		res.Generation = activeNumber(d.opts.Home)
	}
	return res
}

// planned notes the oldest change a pass found by planning: the pass began
// after it, so it counts as unpublished until the pass succeeds.
func (d *daemon) planned(oldest time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending.IsZero() || oldest.Before(d.pending) {
		d.pending = oldest
	}
}

// activeNumber returns the number of the active generation, 0 when there
// is none or it cannot be read.
func activeNumber(home string) uint64 {
	ro, err := store.OpenReadOnly(home)
	if err != nil {
		return 0
	}
	id, err := ro.Refs.Get(refs.Active)
	if err != nil {
		return 0
	}
	g, err := refs.Load(ro.Objects, id)
	if err != nil {
		return 0
	}
	return g.Number
}
