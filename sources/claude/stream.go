package claude

import (
	"errors"
	"io"

	"ctx/core"
)

// Streaming (ParseStream). A session is handed to the sink a chunk of
// core.ChunkSize events at a time, once the session's identity is known
// (the file name, or the first sessionId and agentId read) and the chunk
// lies streamWindow events behind the last one read. Records change
// earlier events in three ways: a streamed message's later blocks merge
// into its events (by message id), its usage goes to its first event, and
// a tool_result takes its call's name and kind. Their entries stay open
// while their events are pending; handing a chunk over closes the entries
// of its events (and the calls streamCallWindow events old), and remembers
// their keys in a KeySet. A record that reaches for a closed entry stops
// the parse with core.ErrParseWhole, and the caller reads the file whole:
// the result is always the whole parse's. Claude Code writes a message's
// records within a few lines of each other (at most 17 apart in the
// fixtures), so with real transcripts that does not happen.
//
// What grows with the file is 16 bytes a record uuid (the duplicate
// check), a numbered event key (Finalize's count of repeats) or a closed
// entry, instead of the events themselves.
// (Variables, so that tests can narrow them.)
var (
	streamWindow     = 1024
	streamCallWindow = 4096
	// streamMaxBytes hands chunks over early, down to two chunks pending,
	// once the pending events' text exceeds it.
	streamMaxBytes = 8 << 20
)

// stream is the state of a parse that hands its session over in chunks.
type stream struct {
	sink    core.SessionSink
	h       core.KeyHasher
	seen    core.KeySet // record uuids ("r")
	shut    core.KeySet // closed merge keys ("m"), usage ids ("u"), call ids ("c")
	keys    core.KeySet // event keys numbered, but those that are their record's uuid ("k")
	repeats map[[16]byte]int
	own     []bool // parallel to parser.events: the key is its record's uuid
	bytes   int    // text of the pending events
	begun   bool
	sess    core.ParsedSession // identity and time range, once begun
	err     error              // the sink's error, or ErrParseWhole
}

// ParseStreamReader parses one transcript as ParseReader does, handing its
// session's events to sink as it reads (see core.StreamParser).
func ParseStreamReader(r io.Reader, f core.SourceFile, meta *SubagentMeta, sink core.SessionSink) (core.StreamResult, error) {
	p := newParser(f, meta)
	p.seen = nil
	p.st = &stream{sink: sink, h: core.NewKeyHasher(), repeats: map[[16]byte]int{}}
	defer p.st.close()
	problems, err := p.read(r)
	if err == nil {
		err = p.drain(true)
	}
	if err == nil {
		err = p.st.setsErr()
	}
	if err != nil {
		return core.StreamResult{}, err
	}
	ps := p.shell()
	ps.Session.Started, ps.Session.Ended = p.st.sess.Session.Started, p.st.sess.Session.Ended
	ps.Session.FinalizeTimes(p.next())
	return core.StreamResult{Session: ps, Problems: problems}, nil
}

// setsErr is the key sets' failure to read back their files: the lookups
// it spoiled may have kept a duplicate or dropped a record, so the parse
// fails.
func (st *stream) setsErr() error {
	return errors.Join(st.seen.Err(), st.shut.Err(), st.keys.Err())
}

// close releases the key sets' files.
func (st *stream) close() {
	st.seen.Close()
	st.shut.Close()
	st.keys.Close()
}

// added notes an event appended by the record of uuid.
func (st *stream) added(e *core.Event, uuid string) {
	st.own = append(st.own, uuid != "" && e.Key == uuid)
	st.bytes += len(e.Text)
}

// fail stops the parse with err, keeping the first.
func (st *stream) fail(err error) {
	if st.err == nil {
		st.err = err
	}
}

// closed reports whether the entry of key in namespace ns was closed; the
// parse then stops, since only the whole parse can still use it.
func (st *stream) closed(ns, key string) bool {
	if st.shut.Len() > 0 && st.shut.Has(st.h.Key(ns, key)) {
		st.fail(core.ErrParseWhole)
		return true
	}
	return false
}

// lateMerge reports whether text under key (of the record of uuid) must
// merge into an event that may have been handed over: a closed message, or
// an event keyed by an earlier record's uuid (those entries close with
// their record).
func (st *stream) lateMerge(key, uuid string) bool {
	if st.closed("m", key) {
		return true
	}
	if key != uuid && st.seen.Has(st.h.Key("r", key)) {
		st.fail(core.ErrParseWhole)
		return true
	}
	return false
}

// repeat returns how many earlier events had the key (Finalize's count),
// own telling that the key is its record's uuid. Such a key is not
// noted: no later record has that uuid, so only a key of another kind can
// repeat it, and that one is checked against the record uuids read.
func (st *stream) repeat(key string, own bool) int {
	d := st.h.Key("k", key)
	if own {
		if st.keys.Len() == 0 || !st.keys.Has(d) {
			return 0
		}
	} else {
		if st.seen.Has(st.h.Key("r", key)) {
			// An earlier record's uuid: whether it keyed an event is
			// not kept.
			st.fail(core.ErrParseWhole)
			return 0
		}
		if st.keys.Add(d) {
			return 0
		}
	}
	n := max(st.repeats[d], 1)
	st.repeats[d] = n + 1
	return n
}

// ready reports whether the session's identity is settled (the parse
// begins once it is, and the workspace is known too, or a window of events
// waits without it, so that an import can tell whether [exclude] names the
// session before it stores any of it): a main
// transcript's by a UUID file name or its first sessionId, a subagent's by
// its first sessionId and agentId.
func (p *parser) ready() bool {
	base, ok := p.baseName()
	if !ok {
		return false
	}
	if !p.isSubagent(base) {
		return core.IsUUID(base) || p.info.sessionID != ""
	}
	return p.info.agentID != "" && p.info.sessionID != ""
}

// drain hands over the chunks that are due, all that is left when final.
func (p *parser) drain(final bool) error {
	st := p.st
	for st.err == nil {
		if !st.begun {
			if !final && !(p.ready() && (p.info.cwd != "" || len(p.events) >= streamWindow)) {
				return nil
			}
			p.begin()
			continue
		}
		n := len(p.events)
		due := n >= core.ChunkSize+streamWindow || (st.bytes > streamMaxBytes && n >= 2*core.ChunkSize)
		if final {
			due = n > 0
		}
		if !due {
			return nil
		}
		p.flush(min(n, core.ChunkSize))
	}
	return st.err
}

// begin settles the session's identity and tells the sink.
func (p *parser) begin() {
	st := p.st
	st.begun = true
	st.sess = p.shell()
	if err := st.sink.Begin(&st.sess.Session); err != nil {
		st.fail(err)
	}
}

// flush closes the entries of the first k pending events, numbers them and
// hands them to the sink.
func (p *parser) flush(k int) {
	st, end := p.st, p.base+k
	for key, i := range p.merge {
		if i < end {
			delete(p.merge, key)
			st.shut.Add(st.h.Key("m", key))
		}
	}
	for id, u := range p.usage {
		if u.at >= end || (u.at < 0 && u.touched >= end) {
			continue
		}
		if u.at >= 0 {
			t := u.tokens
			p.at(u.at).Tokens = &t
		}
		delete(p.usage, id)
		st.shut.Add(st.h.Key("u", id))
	}
	for id, c := range p.calls {
		if c.at < p.next()-streamCallWindow {
			delete(p.calls, id)
			st.shut.Add(st.h.Key("c", id))
		}
	}
	evs, own := p.events[:k:k], st.own[:k]
	s := &st.sess.Session
	for i := range evs {
		e, ord := &evs[i], p.base+i
		key := core.EventKey(e, ord)
		s.FinalizeEvent(e, ord, key, st.repeat(key, own[i]))
		st.bytes -= len(e.Text)
	}
	if st.err != nil {
		return
	}
	p.events, st.own, p.base = p.events[k:], st.own[k:], end
	if err := st.sink.Events(evs); err != nil {
		st.fail(err)
	}
}
