package ingest

import (
	"context"
	"fmt"
	"time"

	"ctx/refs"
)

// Checkpoints: a long import publishes what it has read so far as a
// generation of its own every DefaultCheckpointEvents events or
// DefaultCheckpointEvery, whichever comes first, then goes on reading. An
// import killed at 95% keeps what its last checkpoint published, and the
// next one reads only the files no checkpoint covered (their cursors are
// in that generation). A file is never split: it is published whole, in
// the checkpoint after it was read.
//
// A checkpoint costs one tree, one cursor list and the tombstone layer (the
// same writes as any publish), and its shards are the ones the files since
// the last checkpoint built. The time bound therefore waits for at least
// minTimedCheckpointEvents: on a loaded machine (a 200k-event import that
// took 913 s at load 30 published a checkpoint every minute) small timed
// checkpoints left small shards that merging then rebuilt.
const (
	DefaultCheckpointEvents  = 200_000
	DefaultCheckpointEvery   = 5 * time.Minute
	minTimedCheckpointEvents = 20_000
)

// importAll imports todo, publishing a checkpoint whenever one is due and
// files are left; the caller publishes the last part.
func (r *run) importAll(ctx context.Context, rs *refs.Refs, todo []job) error {
	r.filesTotal = len(todo)
	r.startSegment()
	for {
		n, err := r.importFiles(ctx, todo)
		if err != nil {
			return err
		}
		todo = todo[n:]
		if len(todo) == 0 {
			return nil
		}
		if err := r.checkpoint(ctx, rs); err != nil {
			return err
		}
	}
}

// checkpointDue reports whether the work since the last publish reached a
// bound of Options; r.mu is held.
func (r *run) checkpointDue() bool {
	events, every := r.opts.CheckpointEvents, r.opts.CheckpointEvery
	if events == 0 {
		events = DefaultCheckpointEvents
	}
	if every == 0 {
		every = DefaultCheckpointEvery
	}
	read := r.rep.EventsRead - r.segEvents
	floor := minTimedCheckpointEvents
	if events > 0 && events < floor {
		floor = events
	}
	timed := every > 0 && time.Since(r.segStart) >= every && read >= floor
	return (events > 0 && read >= events) || timed
}

// endNear reports whether the files left to read (left bytes) are so few
// beside those read since the last publish (done) that a checkpoint now
// would be published moments before the run's own publish: under an
// eighth. The files go largest first, so the last ones are small, and a
// checkpoint among them cost a 200,000-event import 3% of its time for
// nothing an interruption would have lost.
func endNear(done, left int64) bool { return left < done/8 }

func (r *run) startSegment() {
	r.mu.Lock()
	r.segStart, r.segEvents = time.Now(), r.rep.EventsRead // real time: Options.Now may be a fixed clock
	r.mu.Unlock()
}

// checkpoint publishes what was read so far and makes that generation the
// base of the rest of the run: a new write batch, no shards or chunks
// pending, the generation's number and id as the parent of the next.
func (r *run) checkpoint(ctx context.Context, rs *refs.Refs) error {
	r.message = fmt.Sprintf("import checkpoint: %d of %d files read, %d events indexed", r.filesDone, r.filesTotal, r.rep.EventsIndexed)
	rep, err := r.publish(ctx, rs)
	r.message = ""
	if err != nil {
		return err
	}
	if rep.Published {
		r.st.prevID, r.st.prev, r.st.number = rep.GenerationID, rep.Generation, rep.Generation.Number
		r.rep.Checkpoints++
	}
	r.batch = r.store.NewBatch()
	r.newShards, r.indexed, r.changedMissing, r.merged = nil, nil, false, nil
	r.startSegment()
	return nil
}
