package codex

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/regular"
)

var _ core.LiveParser = (*Provider)(nil)

// A live parse is a streaming parse held open after the rollout's last
// complete line, its state as it was before the final drain: the events
// it handed over are settled, those still pending are not. Each import
// goes on from there with the lines appended since, and forks the state to
// hand over the rest (the pending events, and a last line still being
// written), so that what it holds is never a final drain's. The result is
// the same as a parse of the whole file. It goes on only with the same
// file (jsonl.Mark).
type live struct {
	p        *parser
	mark     jsonl.Mark     // where it stopped, in which file
	problems []core.Problem // the lines' problems (the records' are the parser's)
}

// ParseLive parses a rollout as ParseStream does and holds the parse open
// (core.LiveParser). A rollout whose identity is not known by its last
// complete line is not held.
func (*Provider) ParseLive(f core.SourceFile, sink core.LiveSink) (core.StreamResult, core.LiveParse, error) {
	fh, err := regular.Open(f.Path)
	if err != nil {
		return core.StreamResult{}, nil, fmt.Errorf("codex: open rollout: %w", err)
	}
	defer fh.Close()
	p := newParser(f)
	p.st = newStream(sink)
	l := &live{p: p, mark: jsonl.NewMark()}
	res, err := l.read(fh, sink)
	if err != nil || !p.st.begun {
		p.st.close()
		return res, nil, err
	}
	return res, l, nil
}

// Continue goes on with what was appended (core.LiveParse).
func (l *live) Continue(f core.SourceFile, sink core.LiveSink) (core.StreamResult, error) {
	if f.Path != l.p.f.Path {
		return core.StreamResult{}, core.ErrParseWhole
	}
	fh, err := regular.Open(f.Path)
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("codex: open rollout: %w", err)
	}
	defer fh.Close()
	if !l.mark.Same(fh) {
		return core.StreamResult{}, core.ErrParseWhole
	}
	if _, err := fh.Seek(l.mark.End, io.SeekStart); err != nil {
		return core.StreamResult{}, fmt.Errorf("codex: read rollout: %w", err)
	}
	l.p.f = f
	return l.read(fh, sink)
}

// Close releases the parse's key sets.
func (l *live) Close() { l.p.st.close() }

// read reads fh's complete lines from the mark on into the held parse,
// then forks it to hand over the rest and build the result.
func (l *live) read(fh *os.File, sink core.LiveSink) (core.StreamResult, error) {
	p := l.p
	p.st.sink = sink
	problems, stop, err := jsonl.ReadFrom(fh, l.mark.Next, l.mark.End, p.line)
	if p.st.err != nil {
		return core.StreamResult{}, p.st.err
	}
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("codex: read rollout: %w", err)
	}
	if err := p.st.setsErr(); err != nil {
		return core.StreamResult{}, err
	}
	l.problems = append(l.problems, problems...)
	if err := l.mark.Set(fh, stop); err != nil {
		return core.StreamResult{}, fmt.Errorf("codex: read rollout: %w", err)
	}
	if p.st.begun {
		sink.Settled()
	}
	return l.finish(stop.Tail)
}

// finish hands over, from a fork of the held parse, the events still
// pending and those of tail, and returns the file's result, as
// ParseStreamReader does at the end of the file.
func (l *live) finish(tail *jsonl.Tail) (core.StreamResult, error) {
	p := l.p.fork()
	defer p.st.close() // the layers' own keys
	problems := slices.Clone(l.problems)
	if tail != nil {
		tp, err := jsonl.ReadTail(tail, p.line)
		if p.st.err != nil {
			return core.StreamResult{}, p.st.err
		}
		if err != nil {
			return core.StreamResult{}, fmt.Errorf("codex: read rollout: %w", err)
		}
		problems = append(problems, tp...)
	}
	p.lineProblems(problems)
	return p.streamResult()
}

// fork returns a copy of a streaming parser that can go on to the end of
// the file and hand over everything, leaving p as it was: its key sets are
// layers over p's.
func (p *parser) fork() *parser {
	c := *p
	c.ps.Events = core.CloneEvents(p.ps.Events)
	c.problems = slices.Clone(p.problems)
	c.pending = slices.Clone(p.pending)
	c.calls = maps.Clone(p.calls)
	st := *p.st
	st.shut, st.keys = p.st.shut.Over(), p.st.keys.Over()
	st.repeats = maps.Clone(p.st.repeats)
	c.st = &st
	return &c
}
