package sourcestest

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"ctx/core"
)

// StreamProvider is a provider that streams its files.
type StreamProvider interface {
	core.Provider
	core.StreamParser
}

// LiveProvider is a provider that can hold a parse open.
type LiveProvider interface {
	core.Provider
	core.LiveParser
}

// chunkSink collects what a streamed parse hands over and checks that it
// comes after Begin, in chunks of core.ChunkSize but for the last. It
// keeps copies, then scribbles on the events it was handed (they are the
// sink's to change), so that a parse still holding on to any part of them
// gives itself away.
type chunkSink struct {
	t     testing.TB
	begun *core.Session
	got   []core.Event // copies of the events handed over
	sizes []int
}

func (s *chunkSink) Begin(sess *core.Session) error {
	if s.begun != nil {
		s.t.Fatal("Begin called twice")
	}
	cp := *sess
	s.begun = &cp
	return nil
}

func (s *chunkSink) Events(evs []core.Event) error {
	if s.begun == nil {
		s.t.Fatal("Events before Begin")
	}
	if n := len(s.sizes); n > 0 && s.sizes[n-1] != core.ChunkSize {
		s.t.Fatalf("a chunk of %d events was not the last", s.sizes[n-1])
	}
	s.sizes = append(s.sizes, len(evs))
	s.got = append(s.got, core.CloneEvents(evs)...)
	for i := range evs {
		scribble(&evs[i])
	}
	return nil
}

// scribble changes every field of e a sink could change in place.
func scribble(e *core.Event) {
	e.Text += " (changed by the sink)"
	for i := range e.Files {
		e.Files[i].NewText += " (changed)"
	}
	if e.ExitCode != nil {
		*e.ExitCode = -99
	}
	if e.Tokens != nil {
		e.Tokens.Input = -99
	}
	if e.Activity != nil {
		e.Activity.Invocation.Result = "changed"
	}
}

// liveSink is a chunkSink that notes where the settled events end.
type liveSink struct {
	chunkSink
	settled int
	calls   int
}

func (s *liveSink) Settled() {
	s.settled = len(s.got)
	s.calls++
}

// StreamEqualsWhole parses f whole and streamed and fails unless both give
// the same session, events and problems; it returns false when the
// streamed parse asked for the whole one instead.
func StreamEqualsWhole(t *testing.T, p StreamProvider, f core.SourceFile) bool {
	t.Helper()
	whole, err := p.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	sink := &chunkSink{t: t}
	res, err := p.ParseStream(f, sink)
	if errors.Is(err, core.ErrParseWhole) {
		return false
	}
	if err != nil {
		t.Fatalf("%s: %v", f.Path, err)
	}
	if len(whole.Sessions) != 1 {
		t.Fatalf("%s: streamed, but the whole parse gives %d sessions", f.Path, len(whole.Sessions))
	}
	w := whole.Sessions[0]
	if sink.begun == nil || sink.begun.ID != w.Session.ID || sink.begun.RootSessionID != w.Session.RootSessionID {
		t.Fatalf("%s: Begin got %+v, want the session %s", f.Path, sink.begun, w.Session.ID)
	}
	same(t, f.Path, res, sink.got, whole)
	return true
}

// same fails unless a streamed result and its events are the whole parse.
func same(t *testing.T, what string, res core.StreamResult, events []core.Event, whole core.ParseResult) {
	t.Helper()
	w := whole.Sessions[0]
	if !reflect.DeepEqual(res.Session.Session, w.Session) {
		t.Fatalf("%s: session\n got %+v\nwant %+v", what, res.Session.Session, w.Session)
	}
	if len(events) != len(w.Events) {
		t.Fatalf("%s: %d events streamed, %d whole", what, len(events), len(w.Events))
	}
	for i := range w.Events {
		if !reflect.DeepEqual(events[i], w.Events[i]) {
			t.Fatalf("%s: event %d\n got %+v\nwant %+v", what, i, events[i], w.Events[i])
		}
	}
	if !reflect.DeepEqual(res.Problems, whole.Problems) {
		t.Fatalf("%s: problems %v, want %v", what, res.Problems, whole.Problems)
	}
}

// GrowLive writes the file at path to a file of the same name in dir a
// piece at a time, cut at the offsets cuts (some in the middle of a line),
// and after each piece goes on with the parse held open. It fails unless
// the settled events of the earlier pieces and what the last one handed
// over are, at each step, exactly the whole parse of the file written so
// far. A parse that asks to be read whole starts over, as an import
// would; it returns how many did, and how many events were settled at the
// end.
func GrowLive(t *testing.T, p LiveProvider, path, dir string, cuts []int) (restarts, settledEvents int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(path))
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	f := core.SourceFile{Provider: p.Name(), Path: dst}
	var lp core.LiveParse
	defer func() {
		if lp != nil {
			lp.Close()
		}
	}()
	var settled []core.Event
	var begun *core.Session
	at := 0
	for _, cut := range append(slices.Clone(cuts), len(data)) {
		if _, err := out.Write(data[at:cut]); err != nil {
			t.Fatal(err)
		}
		at = cut
		sink := &liveSink{chunkSink: chunkSink{t: t, begun: begun}}
		var res core.StreamResult
		if lp != nil {
			res, err = lp.Continue(f, sink)
			if err != nil {
				lp.Close()
				lp = nil
				if !errors.Is(err, core.ErrParseWhole) {
					t.Fatalf("%s at %d: %v", path, cut, err)
				}
				restarts++
				settled, begun, sink = nil, nil, &liveSink{chunkSink: chunkSink{t: t}}
			}
		}
		if lp == nil && sink.begun == nil {
			res, lp, err = p.ParseLive(f, sink)
			if errors.Is(err, core.ErrParseWhole) {
				// Read whole, as an import would (a file that holds no
				// session yet, a record reaching back): the next piece
				// starts a parse again.
				continue
			}
			if err != nil {
				t.Fatalf("%s at %d: %v", path, cut, err)
			}
		}
		if lp != nil && sink.calls != 1 {
			t.Fatalf("%s at %d: Settled called %d times", path, cut, sink.calls)
		}
		whole, err := p.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(whole.Sessions) != 1 {
			t.Fatalf("%s at %d: the whole parse gives %d sessions", path, cut, len(whole.Sessions))
		}
		got := append(slices.Clone(settled), sink.got...)
		same(t, path+" at "+strconv.Itoa(cut)+" of "+strconv.Itoa(len(data)), res, got, whole)
		if lp != nil {
			settled = append(settled, sink.got[:sink.settled]...)
			begun = sink.begun
		}
	}
	return restarts, len(settled)
}

// CutsOf returns n offsets in data, sorted: half at line ends, half
// anywhere (in the middle of a line).
func CutsOf(data []byte, n int, r *rand.Rand) []int {
	var ends []int
	for i, b := range data {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	var cuts []int
	for i := range n {
		if i%2 == 0 && len(ends) > 0 {
			cuts = append(cuts, ends[r.IntN(len(ends))])
		} else {
			cuts = append(cuts, 1+r.IntN(len(data)-1))
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// LiveRefusesAnotherFile holds a parse of the first half of data (written
// to a file named name) open, then replaces the file with a copy, cuts it
// shorter, or changes a byte before where the parse stopped: each time
// Continue must ask for the whole parse.
func LiveRefusesAnotherFile(t *testing.T, p LiveProvider, name string, data []byte) {
	t.Helper()
	half := len(data) / 2
	for half > 0 && data[half-1] != '\n' {
		half--
	}
	for _, tc := range []struct {
		name   string
		change func(path string) error
	}{
		{"replaced", func(path string) error {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, data, 0o600); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}},
		{"shorter", func(path string) error { return os.Truncate(path, int64(half/2)) }},
		{"changed before the end", func(path string) error {
			fh, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer fh.Close()
			if _, err := fh.WriteAt([]byte("X"), int64(half-10)); err != nil {
				return err
			}
			_, err = fh.WriteAt(data[half:], int64(half))
			return err
		}},
	} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data[:half], 0o600); err != nil {
			t.Fatal(err)
		}
		f := core.SourceFile{Provider: p.Name(), Path: path}
		sink := &liveSink{chunkSink: chunkSink{t: t}}
		_, lp, err := p.ParseLive(f, sink)
		if err != nil || lp == nil {
			t.Fatalf("%s: ParseLive: %v, %v", tc.name, lp, err)
		}
		if err := tc.change(path); err != nil {
			t.Fatal(err)
		}
		_, err = lp.Continue(f, &liveSink{chunkSink: chunkSink{t: t, begun: sink.begun}})
		lp.Close()
		if !errors.Is(err, core.ErrParseWhole) {
			t.Errorf("%s: Continue gave %v, want ErrParseWhole", tc.name, err)
		}
	}
}

// LiveEqualsWhole grows each of files piece by piece (GrowLive), first
// with the provider's default windows, where none may start over and some
// events must settle, then after narrow (windows of one chunk), where each
// file must settle events and may start over.
func LiveEqualsWhole(t *testing.T, p LiveProvider, files []string, narrow func()) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	settled := 0
	for _, path := range files {
		data, _ := os.ReadFile(path)
		n, s := GrowLive(t, p, path, t.TempDir(), CutsOf(data, 16, r))
		if n != 0 {
			t.Errorf("%s: started over %d times with the default windows", path, n)
		}
		settled += s
	}
	if settled == 0 {
		t.Fatal("no event was settled with the default windows: the files are too short")
	}
	narrow()
	restarts := 0
	for _, path := range files {
		data, _ := os.ReadFile(path)
		n, s := GrowLive(t, p, path, t.TempDir(), CutsOf(data, 16, r))
		if s == 0 {
			t.Errorf("%s: no event settled with windows of one chunk", path)
		}
		restarts += n
	}
	t.Logf("narrowed windows: %d restarts", restarts)
}
