package ingest

import (
	"context"
	"sync"

	"ctx/core"
	"ctx/index"
)

// importFile reads one changed file and stores its sessions. A file that
// cannot be read is a counted problem, never a failed import; its previous
// sessions stay in the tree.
func (r *run) importFile(ctx context.Context, j job, docs chan<- index.Doc) error {
	key := cursorKey(j.file.Provider, j.file.Path)
	if sp, ok := j.prov.(core.StreamParser); ok {
		done, err := r.importFileStream(ctx, j, sp, docs)
		if done || err != nil {
			return err
		}
	}
	res, err := j.prov.Parse(j.file)
	if err != nil {
		r.parseFailed(j, err)
		return nil
	}
	if len(res.Sessions) == 0 && len(res.Problems) > 0 {
		// Nothing readable (a file caught mid-rewrite, a locked database):
		// count the problems but keep the previous cursor, so the file's
		// sessions stay counted and the next import reads it again.
		r.mu.Lock()
		defer r.mu.Unlock()
		r.rep.Problems = append(r.rep.Problems, res.Problems...)
		r.st.discover = append(r.st.discover, res.Problems...)
		r.troubled[key] = true
		return nil
	}
	cur := newCursor(j, res.Problems)
	for i := range res.Sessions {
		ps := &res.Sessions[i]
		if r.skipped(&ps.Session) {
			continue // forgotten or excluded: nothing of it is stored
		}
		if red := r.opts.Redactor; red != nil {
			for k := range ps.Events {
				cur.Redactions += red.Event(&ps.Events[k])
			}
			var n int
			ps.Session.Title, n = red.String(ps.Session.Title)
			cur.Redactions += n
		}
		ps.Session.Source = core.SourceRef{Provider: j.file.Provider, Root: j.file.Root, Group: j.file.Group, Path: j.file.Path}
		if err := r.storeSession(ctx, ps, docs); err != nil {
			return err
		}
		cur.Sessions = append(cur.Sessions, ps.Session.ID)
		cur.Events += len(ps.Events)
	}
	r.fileRead(key, cur, res.Problems)
	return nil
}

// importFileStream imports j through its streaming parser; done false
// asks for the whole parse.
func (r *run) importFileStream(ctx context.Context, j job, sp core.StreamParser, docs chan<- index.Doc) (done bool, err error) {
	cur := newCursor(j, nil)
	res, handled, fatal, err := r.importStream(ctx, j, sp, &cur, docs)
	switch {
	case !handled:
		return false, nil
	case err != nil && fatal:
		return true, err
	case err != nil:
		r.parseFailed(j, err)
		return true, nil
	}
	cur.Problems = newCursor(j, res.Problems).Problems
	r.fileRead(cursorKey(j.file.Provider, j.file.Path), cur, res.Problems)
	return true, nil
}

// newCursor starts the cursor of a file read, counting its problems.
func newCursor(j job, problems []core.Problem) core.FileCursor {
	cur := core.FileCursor{Provider: j.file.Provider, Path: j.file.Path, Root: j.file.Root, Group: j.file.Group,
		Size: j.size, ModTime: j.mtime, Companions: j.companions}
	for _, p := range problems {
		if cur.Problems == nil {
			cur.Problems = map[string]int{}
		}
		cur.Problems[p.Code]++
	}
	return cur
}

// fileRead records the cursor and problems of a file read.
func (r *run) fileRead(key string, cur core.FileCursor, problems []core.Problem) {
	r.mu.Lock()
	r.st.cursors[key] = cur
	r.rep.FilesRead++
	r.rep.Problems = append(r.rep.Problems, problems...)
	r.mu.Unlock()
}

// parseFailed counts a file that could not be read: its previous sessions
// stay in the tree.
func (r *run) parseFailed(j job, err error) {
	key := cursorKey(j.file.Provider, j.file.Path)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.discover = append(r.st.discover, core.Problem{Code: statCode(err), Provider: j.file.Provider, Path: j.file.Path})
	r.troubled[key] = true
	if c, ok := r.st.cursors[key]; ok && !c.Missing {
		c.Missing = true
		r.st.cursors[key] = c
		r.changedMissing = true
	}
}

// storeSession stores one parsed session. The same session can come from
// two files (a configured backup of ~/.claude, a symlinked duplicate):
// the copies are stored one at a time, the version stored earlier (in
// this run too, so read through the batch) is the previous one, and a copy
// from another file holding no more events than it does not replace it.
func (r *run) storeSession(ctx context.Context, ps *core.ParsedSession, docs chan<- index.Doc) error {
	unlock := r.lockSession(ps.Session.ID)
	defer unlock()
	var prevChunks []core.ChunkRef
	r.mu.Lock()
	prevEntry, existed := r.st.tree[ps.Session.ID]
	r.mu.Unlock()
	if existed && prevEntry.SourceKey != ps.Session.Source.Path && len(ps.Events) <= prevEntry.Events {
		return nil
	}
	if existed {
		so, err := core.LoadSession(r.batch, prevEntry.Object)
		if err != nil {
			return err
		}
		prevChunks = so.Chunks
	}
	r.heap.HoldEvents(ps.Events)
	w, err := core.WriteSession(r.batch, ps, prevChunks)
	if err == nil {
		err = r.commitPending()
	}
	if err != nil {
		return err
	}
	tombs, err := r.tombstones(ps, w)
	if err != nil {
		return err
	}
	sess := &w.Object.Session
	indexed := 0
	r.addIndexed(sess.ID, &w)
	for _, nc := range w.NewChunks {
		r.early.Add(nc.Ref.ID, nc.Chunk.Events)
		for k := range nc.Chunk.Events {
			select {
			case docs <- index.Doc{Event: &nc.Chunk.Events[k], Session: sess, Chunk: nc.Ref.ID, Pos: k}:
				indexed++
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.tree[ps.Session.ID] = w.Entry
	for id, gen := range tombs {
		r.st.setTomb(id, gen)
	}
	r.rep.SessionsWrote++
	r.rep.EventsRead += len(ps.Events)
	r.rep.EventsIndexed += indexed
	return nil
}

// tombstones returns the tombstone updates a rewritten session needs: events
// of replaced chunks are current in this generation when re-indexed, and
// gone (0) when no longer in the session; re-indexed events that had a
// tombstone move to this generation.
func (r *run) tombstones(ps *core.ParsedSession, w core.WrittenSession) (map[core.EventID]uint64, error) {
	gen := r.st.number + 1
	out := map[core.EventID]uint64{}
	if len(w.Replaced) > 0 {
		fresh := map[core.EventID]bool{}
		for _, nc := range w.NewChunks {
			for _, e := range nc.Chunk.Events {
				fresh[e.ID] = true
			}
		}
		all := make(map[core.EventID]bool, len(ps.Events))
		for _, e := range ps.Events {
			all[e.ID] = true
		}
		for _, ref := range w.Replaced {
			c, err := core.LoadChunk(r.batch, ref.ID)
			if err != nil {
				return nil, err
			}
			for _, e := range c.Events {
				switch {
				case fresh[e.ID]:
					out[e.ID] = gen
				case !all[e.ID]:
					out[e.ID] = 0
				}
			}
		}
	}
	// Looked up event by event, not through a set of the new events: a
	// first import of a long session would build one entry per event.
	r.mu.Lock()
	if len(r.st.tombs) > 0 {
		for _, nc := range w.NewChunks {
			for _, e := range nc.Chunk.Events {
				if _, ok := r.st.tombs[e.ID]; ok {
					out[e.ID] = gen
				}
			}
		}
	}
	r.mu.Unlock()
	return out, nil
}

// indexedSession is a session whose new chunks went to the run's shards:
// its chunk list, the session object's, and which of them are new. A long
// session's list is kept once, not copied into a list of the run's.
type indexedSession struct {
	id     core.SessionID
	chunks []core.ChunkRef
	fresh  []bool
}

// addIndexed notes that the new chunks of w, session id, go to the run's
// shards.
func (r *run) addIndexed(id core.SessionID, w *core.WrittenSession) {
	r.mu.Lock()
	r.indexed = append(r.indexed, indexedSession{id: id, chunks: w.Object.Chunks, fresh: w.Fresh})
	r.mu.Unlock()
}

// indexedChunks yields the chunks whose events went to the run's shards,
// session by session in the order they were stored.
func (r *run) indexedChunks(yield func(core.IndexedChunk) bool) {
	for _, s := range r.indexed {
		for i, ref := range s.chunks {
			if s.fresh[i] && !yield(core.IndexedChunk{Session: s.id, Chunk: ref.ID}) {
				return
			}
		}
	}
}

// lockSession serializes the storing of one session id across workers and
// returns the unlock.
func (r *run) lockSession(id core.SessionID) func() {
	m, _ := r.sessions.LoadOrStore(id, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}
