package ingest

import (
	"context"
	"errors"

	"ctx/core"
	"ctx/index"
)

// A file whose provider streams (core.StreamParser) is imported a chunk
// at a time: each chunk of events is redacted and written as it comes,
// so that the import holds the events in flight, not the session. Its
// events go to the index once the session is read, from the chunks
// written: a parse that must be redone whole (core.ErrParseWhole) then
// leaves nothing in the index, only chunk objects no tree names, which gc
// removes. The result is the whole parse's, stored as storeSession
// stores it.

// importStream imports the file j through sp. It returns handled false
// when the file must be imported whole instead; an error is the file's
// (a counted problem) unless fatal says it is the store's or the
// context's, which fails the import.
func (r *run) importStream(ctx context.Context, j job, sp core.StreamParser, cur *core.FileCursor, docs chan<- index.Doc) (res core.StreamResult, handled, fatal bool, err error) {
	s := &sessionSink{r: r, ctx: ctx, path: j.file.Path}
	defer s.release()
	if lp, ok := sp.(core.LiveParser); ok && r.opts.Deferred && j.size >= liveMinBytes {
		defer s.keepLive(j)
		res, err = r.parseLive(j, lp, s)
	} else {
		res, err = sp.ParseStream(j.file, s)
	}
	switch {
	case errors.Is(err, core.ErrParseWhole):
		return res, false, false, nil
	case err != nil:
		return res, true, s.sinkErr != nil, err
	case s.skip != r.skipped(&res.Session.Session):
		// The session as read to its end is excluded, or not, unlike
		// what Begin saw (a provider whose workspace can change): the
		// whole parse decides.
		return res, false, false, nil
	case s.skip:
		return res, true, false, nil
	}
	ps := &res.Session
	if red := r.opts.Redactor; red != nil {
		var n int
		ps.Session.Title, n = red.String(ps.Session.Title)
		s.redactions += n
	}
	cur.Redactions += s.redactions
	ps.Session.Source = core.SourceRef{Provider: j.file.Provider, Root: j.file.Root, Group: j.file.Group, Path: j.file.Path}
	if err := s.finish(ps, docs); err != nil {
		return res, true, true, err
	}
	cur.Sessions = append(cur.Sessions, ps.Session.ID)
	cur.Events += ps.Session.EventCount
	return res, true, false, nil
}

// sessionSink stores a streamed session's chunks (core.SessionSink).
type sessionSink struct {
	r          *run
	ctx        context.Context
	path       string
	unlock     func()
	skip       bool // forgotten: nothing of it is stored
	w          *core.ChunkWriter
	digest     *core.DigestBuilder
	fresh      int            // chunks written that the previous version lacks (the writer lists them)
	held       [][]core.Event // the events of the first of them, while within keepEvents and keepBytes
	last       []core.Event   // the events of the last of them, while no later chunk is written
	heldEvents int
	heldBytes  int
	freshIDs   *core.KeySet // their events, when there is a previous version
	tombs      map[core.EventID]uint64
	redactions int
	sinkErr    error
	// A parse held open (live.go): what the sink stored of the events it
	// settled, and the session entry it stored.
	live              *liveFile
	settledChunks     []core.ChunkRef
	settledDigest     *core.DigestBuilder
	settledRedactions int
	stored            core.TreeEntry
}

func (s *sessionSink) release() {
	if s.unlock != nil {
		s.unlock()
		s.unlock = nil
	}
}

func (s *sessionSink) fail(err error) error {
	s.sinkErr = err
	return err
}

// Begin takes the session's lock and its previous version. A session
// another file stored (a backup copy, a symlinked duplicate) is imported
// whole, by storeSession's rule on which copy wins.
func (s *sessionSink) Begin(sess *core.Session) error {
	r := s.r
	if r.opts.Exclude != nil && sess.Workspace == "" {
		// [exclude] may name the workspace, which the parse has not
		// read yet: the whole parse decides, so that nothing of an
		// excluded session is written.
		return core.ErrParseWhole
	}
	if r.skipped(sess) {
		s.skip = true
		return nil
	}
	s.unlock = r.lockSession(sess.ID)
	r.mu.Lock()
	prevEntry, existed := r.st.tree[sess.ID]
	r.mu.Unlock()
	if existed && prevEntry.SourceKey != s.path {
		return core.ErrParseWhole
	}
	var prevChunks []core.ChunkRef
	if existed {
		so, err := core.LoadSession(r.batch, prevEntry.Object)
		if err != nil {
			return s.fail(err)
		}
		prevChunks = so.Chunks
		s.freshIDs = &core.KeySet{}
	}
	s.w = core.NewChunkWriter(r.batch, sess.ID, prevChunks)
	s.digest = core.NewLaterDigestBuilder()
	s.tombs = map[core.EventID]uint64{}
	return nil
}

// Events redacts and writes one chunk.
func (s *sessionSink) Events(evs []core.Event) error {
	if s.skip {
		return nil
	}
	if err := s.ctx.Err(); err != nil {
		return s.fail(err)
	}
	s.last = nil
	s.r.heap.HoldEvents(evs)
	if red := s.r.opts.Redactor; red != nil {
		for k := range evs {
			s.redactions += red.Event(&evs[k])
		}
	}
	for k := range evs {
		s.digest.Add(&evs[k])
	}
	ref, isNew, err := s.w.Write(evs)
	if err == nil {
		err = s.r.commitPending()
	}
	if err != nil {
		return s.fail(err)
	}
	if !isNew {
		return nil
	}
	s.fresh++
	s.r.early.Add(ref.ID, evs)
	s.hold(evs)
	s.last = evs
	if s.freshIDs != nil {
		for k := range evs {
			s.freshIDs.Add(evs[k].ID)
		}
	}
	r := s.r
	gen := r.st.number + 1
	r.mu.Lock()
	if len(r.st.tombs) > 0 {
		for k := range evs {
			if _, ok := r.st.tombs[evs[k].ID]; ok {
				s.tombs[evs[k].ID] = gen
			}
		}
	}
	r.mu.Unlock()
	return nil
}

// A session's first new chunks are held for the index while they are
// within these bounds (an ordinary session is, whole); later ones are read
// back from the store, which costs a decode per chunk, but for the last,
// which is in memory anyway when the session ends (a session of one huge
// record would otherwise hold it twice while it is decoded again).
const (
	keepEvents = 8192
	keepBytes  = 4 << 20
)

// hold keeps evs for the index while the held chunks are within bounds.
func (s *sessionSink) hold(evs []core.Event) {
	if len(s.held) < s.fresh-1 {
		return // an earlier chunk was not held: the rest are read back
	}
	n := 0
	for k := range evs {
		n += len(evs[k].Text)
	}
	if s.heldEvents+len(evs) > keepEvents || s.heldBytes+n > keepBytes {
		return
	}
	s.held = append(s.held, evs)
	s.heldEvents += len(evs)
	s.heldBytes += n
}

// finish stores the session object, its tombstones and its tree entry,
// and sends the new chunks' events to the index.
func (s *sessionSink) finish(ps *core.ParsedSession, docs chan<- index.Doc) error {
	r := s.r
	w, err := s.w.Finish(&ps.Session, s.digest.DigestFor(&ps.Session))
	if err != nil {
		return err
	}
	if err := s.replacedTombstones(w); err != nil {
		return err
	}
	sess := &w.Object.Session
	r.addIndexed(sess.ID, &w)
	indexed, i := 0, -1 // i counts the new chunks
	for n, ref := range w.Object.Chunks {
		if !w.Fresh[n] {
			continue
		}
		i++
		var evs []core.Event
		if i < len(s.held) {
			evs, s.held[i] = s.held[i], nil
		} else if i == s.fresh-1 && s.last != nil {
			evs, s.last = s.last, nil
		} else {
			c, err := core.LoadChunk(r.batch, ref.ID)
			if err != nil {
				return err
			}
			evs = c.Events
		}
		for k := range evs {
			select {
			case docs <- index.Doc{Event: &evs[k], Session: sess, Chunk: ref.ID, Pos: k}:
				indexed++
			case <-s.ctx.Done():
				return s.ctx.Err()
			}
		}
	}
	s.stored = w.Entry
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.tree[ps.Session.ID] = w.Entry
	for id, gen := range s.tombs {
		r.st.setTomb(id, gen)
	}
	r.rep.SessionsWrote++
	r.rep.EventsRead += ps.Session.EventCount
	r.rep.EventsIndexed += indexed
	return nil
}

// replacedTombstones is tombstones' rule for the chunks of the previous
// version that are gone: their events are current in this generation when
// a new chunk holds them, and gone (0) when no chunk of the session does.
// An event in neither a new chunk nor a replaced one can only be in a chunk
// both versions share, which is read only when such an event is found.
func (s *sessionSink) replacedTombstones(w core.WrittenSession) error {
	if len(w.Replaced) == 0 {
		return nil
	}
	r := s.r
	gen := r.st.number + 1
	var left []core.EventID
	for _, ref := range w.Replaced {
		c, err := core.LoadChunk(r.batch, ref.ID)
		if err != nil {
			return err
		}
		for _, e := range c.Events {
			if s.freshIDs.Has(e.ID) {
				s.tombs[e.ID] = gen
			} else {
				left = append(left, e.ID)
			}
		}
	}
	if err := s.freshIDs.Err(); err != nil {
		return err
	}
	if len(left) == 0 {
		return nil
	}
	kept := map[core.EventID]bool{}
	for n, ref := range w.Object.Chunks {
		if w.Fresh[n] {
			continue
		}
		c, err := core.LoadChunk(r.batch, ref.ID)
		if err != nil {
			return err
		}
		for _, e := range c.Events {
			kept[e.ID] = true
		}
	}
	for _, id := range left {
		if !kept[id] {
			s.tombs[id] = 0
		}
	}
	return nil
}
