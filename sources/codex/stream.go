package codex

import (
	"errors"
	"fmt"
	"io"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/regular"
)

var _ core.StreamParser = (*Provider)(nil)

// Streaming (ParseStream). A rollout's session is handed to the sink a
// chunk of core.ChunkSize events at a time, once its identity is known
// (its first session_meta record, else the file name at the end) with its
// workspace, and the chunk lies streamWindow events behind the last one
// read. Records change
// earlier events in one way only: an MCP call's output marks its call's
// result captured. An output must also find its call, to be read as a
// command's, a patch's or an MCP tool's. Handing a chunk over makes its
// events unreachable, and calls streamCallWindow events old are
// forgotten, their ids kept in a KeySet; a record that reaches for either
// stops the parse with core.ErrParseWhole, and the caller reads the file
// whole: the result is always the whole parse's. In the real rollouts of
// the fixtures an output comes well within the window of its call, so
// none is parsed whole with the default windows.
//
// What grows with the file is 16 bytes an event key (Finalize's count of
// repeats) and a forgotten call id, instead of the events themselves.
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
	shut    core.KeySet // forgotten call ids ("c")
	keys    core.KeySet // event keys ("k")
	repeats map[[16]byte]int
	bytes   int // text of the pending events
	begun   bool
	sess    core.ParsedSession // identity and time range, once begun
	err     error              // the sink's error, or ErrParseWhole
}

func newStream(sink core.SessionSink) *stream {
	return &stream{sink: sink, h: core.NewKeyHasher(), repeats: map[[16]byte]int{}}
}

// ParseStream parses a rollout as Parse does, handing its session's events
// to sink as it reads (core.StreamParser).
func (*Provider) ParseStream(f core.SourceFile, sink core.SessionSink) (core.StreamResult, error) {
	fh, err := regular.Open(f.Path)
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("codex: open rollout: %w", err)
	}
	defer fh.Close()
	return ParseStreamReader(fh, f, sink)
}

// ParseStreamReader parses a rollout from r as ParseReader does, handing
// its session's events to sink as it reads.
func ParseStreamReader(r io.Reader, f core.SourceFile, sink core.SessionSink) (core.StreamResult, error) {
	p := newParser(f)
	p.st = newStream(sink)
	defer p.st.close()
	problems, err := jsonl.Read(r, p.line)
	if p.st.err != nil {
		return core.StreamResult{}, p.st.err
	}
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("codex: read rollout: %w", err)
	}
	p.lineProblems(problems)
	return p.streamResult()
}

// lineProblems adds the problems of the file's lines to the records'.
func (p *parser) lineProblems(problems []core.Problem) {
	for _, pr := range problems {
		p.problems = append(p.problems, core.Problem{Code: pr.Code, Provider: core.ProviderCodex,
			Path: p.f.Path, Line: pr.Line})
	}
}

// streamResult hands over what is pending and returns the file's result.
// A file without a session (no record, no meta) is left to the whole
// parse, which reports it.
func (p *parser) streamResult() (core.StreamResult, error) {
	if !p.st.begun && p.next() == 0 && !p.haveMeta {
		return core.StreamResult{}, core.ErrParseWhole
	}
	if err := p.drain(true); err != nil {
		return core.StreamResult{}, err
	}
	if err := p.st.setsErr(); err != nil {
		return core.StreamResult{}, err
	}
	ps := p.header()
	ps.Session.Started, ps.Session.Ended = p.st.sess.Session.Started, p.st.sess.Session.Ended
	ps.Session.FinalizeTimes(p.next())
	return core.StreamResult{Session: ps, Problems: p.sortedProblems()}, nil
}

// close releases the key sets' files.
func (st *stream) close() {
	st.shut.Close()
	st.keys.Close()
}

// setsErr is the key sets' failure to read back their files: the lookups
// it spoiled may have numbered a key wrongly, so the parse fails.
func (st *stream) setsErr() error { return errors.Join(st.shut.Err(), st.keys.Err()) }

// fail stops the parse with err, keeping the first.
func (st *stream) fail(err error) {
	if st.err == nil {
		st.err = err
	}
}

// repeat returns how many earlier events had the key (Finalize's count).
func (st *stream) repeat(key string) int {
	d := st.h.Key("k", key)
	if st.keys.Add(d) {
		return 0
	}
	n := max(st.repeats[d], 1)
	st.repeats[d] = n + 1
	return n
}

// drain hands over the chunks that are due, all that is left when final.
func (p *parser) drain(final bool) error {
	st := p.st
	for st.err == nil {
		if !st.begun {
			// The identity is known at the first meta; the workspace
			// too, or a window of events waits without it (see
			// core.SessionSink).
			if !final && !(p.haveMeta && (p.ps.Session.Workspace != "" || len(p.ps.Events) >= streamWindow)) {
				return nil
			}
			st.begun = true
			st.sess = p.header()
			if err := st.sink.Begin(&st.sess.Session); err != nil {
				st.fail(err)
			}
			continue
		}
		n := len(p.ps.Events)
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

// flush forgets the calls streamCallWindow events old, numbers the first
// k pending events and hands them to the sink.
func (p *parser) flush(k int) {
	st := p.st
	for id, c := range p.calls {
		if c.idx < p.next()-streamCallWindow {
			delete(p.calls, id)
			st.shut.Add(st.h.Key("c", id))
		}
	}
	evs := p.ps.Events[:k:k]
	s := &st.sess.Session
	for i := range evs {
		e, ord := &evs[i], p.base+i
		key := core.EventKey(e, ord)
		s.FinalizeEvent(e, ord, key, st.repeat(key))
		st.bytes -= len(e.Text)
	}
	p.ps.Events, p.base = p.ps.Events[k:], p.base+k
	if err := st.sink.Events(evs); err != nil {
		st.fail(err)
	}
}
