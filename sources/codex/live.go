package codex

import (
	"fmt"
	"maps"
	"slices"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/regular"
)

var _ core.LiveParser = (*Provider)(nil)

// ParseLive parses a rollout as ParseStream does and holds the parse open
// (core.LiveParser, through jsonl.Live). A rollout whose identity is not
// known by its last complete line is not held.
func (*Provider) ParseLive(f core.SourceFile, sink core.LiveSink) (core.StreamResult, core.LiveParse, error) {
	p := newParser(f)
	p.st = newStream(sink)
	res, l, err := jsonl.ReadLive(f, held{p}, sink, jsonl.Opening{Open: regular.Open, OpenWhat: "codex: open rollout", ReadWhat: "codex: read rollout"})
	if l == nil {
		return res, nil, err
	}
	return res, l, err
}

// held is a streaming parser as a jsonl.Held.
type held struct{ p *parser }

func (h held) Resume(f core.SourceFile, sink core.LiveSink) { h.p.f, h.p.st.sink = f, sink }
func (h held) Line(l jsonl.Line) error                      { return h.p.line(l) }
func (h held) Begun() bool                                  { return h.p.st.begun }
func (h held) Close()                                       { h.p.st.close() }

func (h held) Stopped() error {
	if h.p.st.err != nil {
		return h.p.st.err
	}
	return h.p.st.setsErr()
}

// Finish hands over, from a fork of the parse, the events still pending
// and those of tail, and returns the file's result, as ParseStreamReader
// does at the end of the file.
func (h held) Finish(tail *jsonl.Tail, problems []core.Problem) (core.StreamResult, error) {
	p := h.p.fork()
	defer p.st.close() // the layers' own keys
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
