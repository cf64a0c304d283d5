package claude

import (
	"maps"
	"reflect"
	"slices"
	"sort"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/regular"
)

var _ core.LiveParser = (*Provider)(nil)

// live is a transcript's parse held open (jsonl.Live), which goes on only
// with the same subagent meta too.
type live struct {
	*jsonl.Live
	meta *SubagentMeta
}

// ParseLive parses a transcript as ParseStream does and holds the parse
// open (core.LiveParser).
func (*Provider) ParseLive(f core.SourceFile, sink core.LiveSink) (core.StreamResult, core.LiveParse, error) {
	meta, metaProblem := readMeta(f.Path)
	p := newParser(f, meta)
	p.seen = nil
	p.st = &stream{sink: sink, h: core.NewKeyHasher(), repeats: map[[16]byte]int{}}
	res, l, err := jsonl.ReadLive(f, held{p}, sink, jsonl.Opening{Open: regular.Open, OpenWhat: openWhat, ReadWhat: "claude: read " + f.Path})
	res = withMeta(res, err, metaProblem)
	if l == nil {
		return res, nil, err
	}
	return res, &live{Live: l, meta: meta}, err
}

// Continue goes on with what was appended (core.LiveParse).
func (l *live) Continue(f core.SourceFile, sink core.LiveSink) (core.StreamResult, error) {
	meta, metaProblem := readMeta(f.Path)
	if !reflect.DeepEqual(meta, l.meta) {
		return core.StreamResult{}, core.ErrParseWhole
	}
	res, err := l.Live.Continue(f, sink)
	return withMeta(res, err, metaProblem), err
}

// withMeta adds the problem of the subagent meta file to a result.
func withMeta(res core.StreamResult, err error, metaProblem *core.Problem) core.StreamResult {
	if err == nil && metaProblem != nil {
		res.Problems = append(res.Problems, *metaProblem)
	}
	return res
}

// held is a streaming parser as a jsonl.Held.
type held struct{ p *parser }

func (h held) Resume(f core.SourceFile, sink core.LiveSink) { h.p.file, h.p.st.sink = f, sink }
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
			return core.StreamResult{}, err
		}
		problems = append(problems, tp...)
	}
	if err := p.drain(true); err != nil {
		return core.StreamResult{}, err
	}
	if err := p.st.setsErr(); err != nil {
		return core.StreamResult{}, err
	}
	problems = append(problems, p.problems...)
	if p.records == 0 && len(problems) == 0 {
		problems = append(problems, core.Problem{Code: core.ProblemEmptyFile})
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	for i := range problems {
		problems[i].Provider, problems[i].Path = core.ProviderClaude, p.file.Path
	}
	ps := p.shell()
	ps.Session.Started, ps.Session.Ended = p.st.sess.Session.Started, p.st.sess.Session.Ended
	ps.Session.FinalizeTimes(p.next())
	return core.StreamResult{Session: ps, Problems: problems}, nil
}

// fork returns a copy of a streaming parser that can go on to the end of
// the file and hand over everything, leaving p as it was: its key sets are
// layers over p's.
func (p *parser) fork() *parser {
	c := *p
	c.events = core.CloneEvents(p.events)
	c.merge = maps.Clone(p.merge)
	c.problems = slices.Clone(p.problems)
	c.calls = make(map[string]*call, len(p.calls))
	for id, v := range p.calls {
		cv := *v
		c.calls[id] = &cv
	}
	c.usage = make(map[string]*usage, len(p.usage))
	for id, u := range p.usage {
		cu := *u
		c.usage[id] = &cu
	}
	st := *p.st
	st.seen, st.shut, st.keys = p.st.seen.Over(), p.st.shut.Over(), p.st.keys.Over()
	st.repeats = maps.Clone(p.st.repeats)
	st.own = slices.Clone(p.st.own)
	c.st = &st
	return &c
}
