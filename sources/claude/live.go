package claude

import (
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"sort"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/regular"
)

var _ core.LiveParser = (*Provider)(nil)

// A live parse is a streaming parse held open after the transcript's last
// complete line, its state as it was before the final drain: the events
// it handed over are settled, those still pending are not. Each import
// goes on from there with the lines appended since, and forks the state to
// hand over the rest (the pending events, and a last line still being
// written), so that what it holds is never a final drain's. The result is
// the same as a parse of the whole file.
//
// It goes on only with the same file (jsonl.Mark) and the same subagent
// meta.

type live struct {
	p        *parser
	mark     jsonl.Mark     // where it stopped, in which file
	problems []core.Problem // the lines' problems (the records' are the parser's)
	meta     *SubagentMeta
}

// ParseLive parses a transcript as ParseStream does and holds the parse
// open (core.LiveParser).
func (*Provider) ParseLive(f core.SourceFile, sink core.LiveSink) (core.StreamResult, core.LiveParse, error) {
	fh, err := regular.Open(f.Path)
	if err != nil {
		return core.StreamResult{}, nil, fmt.Errorf("%s: %w", openWhat, err)
	}
	defer fh.Close()
	meta, metaProblem := readMeta(f.Path)
	p := newParser(f, meta)
	p.seen = nil
	p.st = &stream{sink: sink, h: core.NewKeyHasher(), repeats: map[[16]byte]int{}}
	l := &live{p: p, mark: jsonl.NewMark(), meta: meta}
	res, err := l.read(fh, f, sink, metaProblem)
	if err != nil || !p.st.begun {
		p.st.close()
		return res, nil, err
	}
	return res, l, nil
}

// Continue goes on with what was appended (core.LiveParse).
func (l *live) Continue(f core.SourceFile, sink core.LiveSink) (core.StreamResult, error) {
	if f.Path != l.p.file.Path {
		return core.StreamResult{}, core.ErrParseWhole
	}
	fh, err := regular.Open(f.Path)
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("%s: %w", openWhat, err)
	}
	defer fh.Close()
	meta, metaProblem := readMeta(f.Path)
	if !reflect.DeepEqual(meta, l.meta) || !l.mark.Same(fh) {
		return core.StreamResult{}, core.ErrParseWhole
	}
	if _, err := fh.Seek(l.mark.End, io.SeekStart); err != nil {
		return core.StreamResult{}, fmt.Errorf("claude: read %s: %w", f.Path, err)
	}
	l.p.file = f
	return l.read(fh, f, sink, metaProblem)
}

// Close releases the parse's key sets.
func (l *live) Close() { l.p.st.close() }

// read reads fh from l.end on into the held parse, then forks it to hand
// over the rest and build the result.
func (l *live) read(fh *os.File, f core.SourceFile, sink core.LiveSink, metaProblem *core.Problem) (core.StreamResult, error) {
	p := l.p
	p.st.sink = sink
	problems, stop, err := jsonl.ReadFrom(fh, l.mark.Next, l.mark.End, p.line)
	if p.st.err != nil {
		return core.StreamResult{}, p.st.err
	}
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("claude: read %s: %w", f.Path, err)
	}
	if err := p.st.setsErr(); err != nil {
		return core.StreamResult{}, err
	}
	l.problems = append(l.problems, problems...)
	if err := l.mark.Set(fh, stop); err != nil {
		return core.StreamResult{}, fmt.Errorf("claude: read %s: %w", f.Path, err)
	}
	if p.st.begun {
		sink.Settled()
	}
	res, err := l.finish(stop.Tail)
	if err != nil {
		return core.StreamResult{}, err
	}
	if metaProblem != nil {
		res.Problems = append(res.Problems, *metaProblem)
	}
	return res, nil
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
