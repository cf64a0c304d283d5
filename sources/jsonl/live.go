package jsonl

import (
	"fmt"
	"io"
	"os"
	"slices"

	"ctx/core"
)

// Held is a provider's streaming parse of one JSON Lines file that a Live
// holds open after the file's last complete line. Its state is the one
// before the final drain: the events it handed over are settled, those
// still pending are not, and each read goes on from there with the lines
// appended since, then forks the state to hand over the rest (the pending
// events, and a last line still being written), so that what it holds is
// never a final drain's. The result is the same as a parse of the whole
// file.
type Held interface {
	// Resume sets the file (the same path) and the sink of the lines read
	// next.
	Resume(f core.SourceFile, sink core.LiveSink)
	// Line handles one complete line (Read's fn).
	Line(Line) error
	// Stopped is what stopped the parse while it read (the sink's error,
	// core.ErrParseWhole) or spoiled its key sets; nil when nothing did.
	Stopped() error
	// Begun reports whether the parse told the sink its session: a parse
	// not begun is not held.
	Begun() bool
	// Finish forks the parse, leaving it as it is, hands over from the
	// fork the pending events and those of tail, and returns the file's
	// result; problems are those of the file's lines.
	Finish(tail *Tail, problems []core.Problem) (core.StreamResult, error)
	// Close releases the parse's key sets.
	Close()
}

// Opening says how a Live opens its file and names its failures.
type Opening struct {
	Open     func(path string) (*os.File, error) // the provider's open (regular.Open)
	OpenWhat string                              // what an error opening the file is prefixed with
	ReadWhat string                              // and one reading it
}

// Live is a Held parse and where it stopped (core.LiveParse).
type Live struct {
	held     Held
	path     string
	mark     Mark
	problems []core.Problem // the lines' problems (the records' are the parse's)
	o        Opening
}

// ReadLive reads f to its end into h, a streaming parse just begun, and
// returns the result and the parse held open, or nil when it cannot be
// held (its session never began).
func ReadLive(f core.SourceFile, h Held, sink core.LiveSink, o Opening) (core.StreamResult, *Live, error) {
	l := &Live{held: h, path: f.Path, mark: NewMark(), o: o}
	fh, err := o.Open(f.Path)
	if err != nil {
		h.Close()
		return core.StreamResult{}, nil, fmt.Errorf("%s: %w", o.OpenWhat, err)
	}
	defer fh.Close()
	res, err := l.read(fh, f, sink)
	if err != nil || !h.Begun() {
		h.Close()
		return res, nil, err
	}
	return res, l, nil
}

// Continue goes on with what was appended to f (core.LiveParse). It asks
// for the whole parse unless f is the file read (Mark).
func (l *Live) Continue(f core.SourceFile, sink core.LiveSink) (core.StreamResult, error) {
	if f.Path != l.path {
		return core.StreamResult{}, core.ErrParseWhole
	}
	fh, err := l.o.Open(f.Path)
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("%s: %w", l.o.OpenWhat, err)
	}
	defer fh.Close()
	if !l.mark.Same(fh) {
		return core.StreamResult{}, core.ErrParseWhole
	}
	if _, err := fh.Seek(l.mark.End, io.SeekStart); err != nil {
		return core.StreamResult{}, fmt.Errorf("%s: %w", l.o.ReadWhat, err)
	}
	return l.read(fh, f, sink)
}

// Close releases the parse.
func (l *Live) Close() { l.held.Close() }

// read reads fh's complete lines from the mark on into the held parse,
// then has it hand over the rest and build the result.
func (l *Live) read(fh *os.File, f core.SourceFile, sink core.LiveSink) (core.StreamResult, error) {
	h := l.held
	h.Resume(f, sink)
	problems, stop, err := ReadFrom(fh, l.mark.Next, l.mark.End, h.Line)
	if err := h.Stopped(); err != nil {
		return core.StreamResult{}, err
	}
	if err != nil {
		return core.StreamResult{}, fmt.Errorf("%s: %w", l.o.ReadWhat, err)
	}
	l.problems = append(l.problems, problems...)
	if err := l.mark.Set(fh, stop); err != nil {
		return core.StreamResult{}, fmt.Errorf("%s: %w", l.o.ReadWhat, err)
	}
	if h.Begun() {
		sink.Settled()
	}
	return h.Finish(stop.Tail, slices.Clone(l.problems))
}
