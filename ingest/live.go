package ingest

import (
	"errors"
	"slices"
	"sync"

	"ctx/core"
	"ctx/objects"
)

// Live parses. The daemon imports one pass after another in the same
// process, and the file that grows is most often the longest one: the
// transcript an agent is writing. Parsing it whole on every pass costs
// time in proportion to its length (2.4 s a pass for a session of 500,000
// records). So with Options.Deferred a long transcript whose provider can
// (core.LiveParser) has its parse held open between passes, with what the
// pass stored from the events the parse settled: their chunks, their
// digest and their redaction count. The next pass goes on from there when
// the session in the tree is the one that pass stored, and stores only
// the chunks after; anything else (the file replaced or rewritten, the
// session stored by another import meanwhile, a record reaching back past
// the settled events) starts a parse anew, as before.

// liveMinBytes is the size from which a transcript's parse is held open:
// a shorter one is parsed whole in well under 100 ms. A variable for the
// tests.
var liveMinBytes int64 = 4 << 20

// maxLive bounds the parses held open; each holds its pending events and
// its key sets (a few MiB at most, the rest in temporary files).
const maxLive = 3

// liveFile is a parse held open and what the pass that last went on with
// it stored.
type liveFile struct {
	parse      core.LiveParse
	session    core.SessionID
	object     objects.ID      // the session object that pass stored
	settled    []core.ChunkRef // the chunks of the events the parse settled
	digest     *core.DigestBuilder
	redactions int
	companions string
	used       uint64
}

var lives struct {
	sync.Mutex
	files map[string]*liveFile
	tick  uint64
}

// liveKey names a file of a store.
func (r *run) liveKey(j job) string {
	return r.opts.Home + "\x00" + cursorKey(j.file.Provider, j.file.Path)
}

// takeLive returns the parse held open for key, which is the caller's
// until it keeps it again, or nil.
func takeLive(key string) *liveFile {
	lives.Lock()
	defer lives.Unlock()
	lf := lives.files[key]
	delete(lives.files, key)
	return lf
}

// keepLive holds lf open for key, closing the least recently used beyond
// maxLive.
func keepLive(key string, lf *liveFile) {
	lives.Lock()
	defer lives.Unlock()
	if lives.files == nil {
		lives.files = map[string]*liveFile{}
	}
	lives.tick++
	lf.used = lives.tick
	if old := lives.files[key]; old != nil {
		old.parse.Close()
	}
	lives.files[key] = lf
	for len(lives.files) > maxLive {
		var oldest string
		for k, f := range lives.files {
			if oldest == "" || f.used < lives.files[oldest].used {
				oldest = k
			}
		}
		lives.files[oldest].parse.Close()
		delete(lives.files, oldest)
	}
}

// errStale says a held parse does not go with the session in the tree.
var errStale = errors.New("ingest: the parse held open is not the stored session's")

// parseLive parses j through lp, going on with the parse held open for it
// when there is one that goes with the stored session; the parse is held
// open again once the session is stored (see keepLive).
func (r *run) parseLive(j job, lp core.LiveParser, s *sessionSink) (core.StreamResult, error) {
	if lf := takeLive(r.liveKey(j)); lf != nil {
		if lf.companions == j.companions && s.resume(lf) == nil {
			res, err := lf.parse.Continue(j.file, s)
			if err == nil {
				s.live = lf
				r.mu.Lock()
				r.rep.FilesContinued++
				r.mu.Unlock()
				return res, nil
			}
			if !errors.Is(err, core.ErrParseWhole) || s.sinkErr != nil {
				lf.parse.Close()
				return res, err
			}
		}
		lf.parse.Close() // it does not go on: the file is parsed anew
		s.reset()
	}
	res, parse, err := lp.ParseLive(j.file, s)
	if err != nil || parse == nil {
		if parse != nil {
			parse.Close()
		}
		return res, err
	}
	s.live = &liveFile{parse: parse}
	return res, nil
}

// keepLive holds the sink's parse open for the next pass, with what this
// one stored; a parse whose session was not stored is closed.
func (s *sessionSink) keepLive(j job) {
	lf := s.live
	if lf == nil {
		return
	}
	s.live = nil
	if s.stored.Session.IsZero() || s.skip || s.settledDigest == nil {
		lf.parse.Close()
		return
	}
	lf.session, lf.object, lf.companions = s.stored.Session, s.stored.Object, j.companions
	lf.settled, lf.digest, lf.redactions = s.settledChunks, s.settledDigest, s.settledRedactions
	keepLive(s.r.liveKey(j), lf)
}

// resume starts the sink where lf's pass left the session, instead of
// Begin: the session in the tree must be the one that pass stored, and
// its chunks start with those lf settled.
func (s *sessionSink) resume(lf *liveFile) error {
	r := s.r
	s.unlock = r.lockSession(lf.session)
	r.mu.Lock()
	entry, ok := r.st.tree[lf.session]
	r.mu.Unlock()
	if !ok || entry.Object != lf.object || entry.SourceKey != s.path ||
		r.forgottenSession(entry.Session, entry.Root) {
		return errStale // a forgotten one is skipped by the parse anew
	}
	so, err := core.LoadSession(r.batch, entry.Object)
	if err != nil || len(so.Chunks) < len(lf.settled) || !slices.Equal(so.Chunks[:len(lf.settled)], lf.settled) {
		return errStale
	}
	s.w = core.NewChunkWriter(r.batch, lf.session, so.Chunks)
	s.w.Keep(lf.settled)
	s.digest = lf.digest // Settled takes a copy; lf's is not used again
	s.redactions = lf.redactions
	s.freshIDs = &core.KeySet{}
	s.tombs = map[core.EventID]uint64{}
	return nil
}

// Settled notes what the sink stored of the events a held parse settled
// (core.LiveSink).
func (s *sessionSink) Settled() {
	if s.skip || s.w == nil {
		return
	}
	s.settledChunks = slices.Clone(s.w.Written())
	s.settledDigest = s.digest.Clone()
	s.settledRedactions = s.redactions
}

// reset makes the sink new again, for a parse that starts over.
func (s *sessionSink) reset() {
	s.release()
	if s.freshIDs != nil {
		s.freshIDs.Close()
	}
	*s = sessionSink{r: s.r, ctx: s.ctx, path: s.path}
}
