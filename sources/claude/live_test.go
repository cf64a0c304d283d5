package claude

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ctx/core"
	"ctx/internal/corpus"
)

// liveSink is a chunkSink that notes where the settled events end.
type liveSink struct {
	chunkSink
	settled int
	calls   int
}

func (s *liveSink) Settled() {
	s.settled = len(s.events)
	s.calls++
}

// growLive writes the transcript at path to a file of the same name in
// dir a piece at a time, cut at the offsets cuts (some in the middle of a
// line), and after each piece goes on with the parse held open. It fails
// unless the settled events of the earlier pieces and what the last one
// handed over are, at each step, exactly the whole parse of the file
// written so far. A parse that asks to be read whole starts over, as an
// import would; it returns how many did, and how many events were settled
// at the end.
func growLive(t *testing.T, path, dir string, cuts []int) (restarts, settledEvents int) {
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
	f := core.SourceFile{Provider: core.ProviderClaude, Path: dst}
	var lp core.LiveParse
	defer func() {
		if lp != nil {
			lp.Close()
		}
	}()
	var settled []core.Event
	var begun *core.Session
	at, reread := 0, 0
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
			res, lp, err = New().ParseLive(f, sink)
			if err != nil {
				t.Fatalf("%s at %d: %v", path, cut, err)
			}
		}
		if lp != nil && sink.calls != 1 {
			t.Fatalf("%s at %d: Settled called %d times", path, cut, sink.calls)
		}
		whole, err := New().Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		w := whole.Sessions[0]
		got := append(slices.Clone(settled), sink.events...)
		if !reflect.DeepEqual(res.Session.Session, w.Session) {
			t.Fatalf("%s at %d of %d: session\n got %+v\nwant %+v", path, cut, len(data), res.Session.Session, w.Session)
		}
		if len(got) != len(w.Events) {
			t.Fatalf("%s at %d of %d: %d events, whole %d", path, cut, len(data), len(got), len(w.Events))
		}
		for i := range w.Events {
			if !reflect.DeepEqual(got[i], w.Events[i]) {
				t.Fatalf("%s at %d: event %d\n got %+v\nwant %+v", path, cut, i, got[i], w.Events[i])
			}
		}
		if !reflect.DeepEqual(res.Problems, whole.Problems) {
			t.Fatalf("%s at %d: problems %v, want %v", path, cut, res.Problems, whole.Problems)
		}
		if lp != nil {
			settled = append(settled, sink.events[:sink.settled]...)
			begun = sink.begun
		}
		reread = len(sink.events)
	}
	if len(settled) > 0 && reread >= len(settled) {
		t.Fatalf("%s: the last piece handed over %d events again, %d were settled", path, reread, len(settled))
	}
	return restarts, len(settled)
}

// cutsOf returns n offsets in data, sorted: half at line ends, half
// anywhere (in the middle of a line).
func cutsOf(data []byte, n int, r *rand.Rand) []int {
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

// A transcript written a piece at a time, each piece read by the parse
// held open since the last, gives at every step what a parse of the
// whole file gives: on the generated corpus's long sessions (many chunks,
// tool calls, streamed messages), with the default windows and with
// windows cut to one chunk, where records reach back past settled events
// and the parse starts over.
func TestLiveEqualsWhole(t *testing.T) {
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Events: 20000, Seed: 5, Providers: []string{core.ProviderClaude}}); err != nil {
		t.Fatal(err)
	}
	var files []string
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "subagents") {
			if fi, _ := d.Info(); fi != nil && fi.Size() > 256<<10 {
				files = append(files, p)
			}
		}
		return err
	})
	if len(files) < 3 {
		t.Fatalf("%d long corpus files", len(files))
	}
	slices.SortFunc(files, func(a, b string) int { return fileSize(b) - fileSize(a) })
	files = files[:3]
	for i, p := range files { // past the default window of pending events
		if _, err := corpus.Append(p, 2500, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	settled := 0
	for _, p := range files {
		data, _ := os.ReadFile(p)
		n, s := growLive(t, p, t.TempDir(), cutsOf(data, 16, r))
		if n != 0 {
			t.Errorf("%s: started over %d times with the default windows", p, n)
		}
		settled += s
	}
	if settled == 0 {
		t.Fatal("no event was settled with the default windows: the corpus files are too short")
	}
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<10)
	restarts := 0
	for _, p := range files {
		data, _ := os.ReadFile(p)
		n, s := growLive(t, p, t.TempDir(), cutsOf(data, 16, r))
		if s == 0 {
			t.Errorf("%s: no event settled with windows of one chunk", p)
		}
		restarts += n
	}
	t.Logf("narrowed windows: %d restarts", restarts)
}

func fileSize(p string) int {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return int(fi.Size())
}

// Every fixture grown a piece at a time gives what the whole parse gives,
// with windows of one chunk, so that the longer ones settle events.
func TestLiveEqualsWholeOnFixtures(t *testing.T) {
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<10)
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range fixtureFiles(t) {
		if strings.Contains(p, "subagents") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) < 2 {
			continue
		}
		growLive(t, p, t.TempDir(), cutsOf(data, 6, r))
	}
}

// A parse held open goes on only with the file it read: one replaced by
// another, cut shorter, or changed before where it stopped asks for the
// whole parse.
func TestLiveRefusesAnotherFile(t *testing.T) {
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Events: 3000, Seed: 7, Providers: []string{core.ProviderClaude}}); err != nil {
		t.Fatal(err)
	}
	var src string
	var size int64
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if fi, _ := d.Info(); err == nil && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "subagents") && fi.Size() > size {
			src, size = p, fi.Size()
		}
		return err
	})
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	half := len(data) / 2
	for half > 0 && data[half-1] != '\n' {
		half--
	}
	for _, tc := range []struct {
		name   string
		change func(path string)
	}{
		{"replaced", func(path string) {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, data, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"shorter", func(path string) {
			if err := os.Truncate(path, int64(half/2)); err != nil {
				t.Fatal(err)
			}
		}},
		{"changed before the end", func(path string) {
			fh, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			if _, err := fh.WriteAt([]byte("X"), int64(half-10)); err != nil {
				t.Fatal(err)
			}
			if _, err := fh.WriteAt(data[half:], int64(half)); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		path := filepath.Join(t.TempDir(), filepath.Base(src))
		if err := os.WriteFile(path, data[:half], 0o600); err != nil {
			t.Fatal(err)
		}
		f := core.SourceFile{Provider: core.ProviderClaude, Path: path}
		sink := &liveSink{chunkSink: chunkSink{t: t}}
		_, lp, err := New().ParseLive(f, sink)
		if err != nil || lp == nil {
			t.Fatalf("%s: ParseLive: %v, %v", tc.name, lp, err)
		}
		tc.change(path)
		_, err = lp.Continue(f, &liveSink{chunkSink: chunkSink{t: t, begun: sink.begun}})
		lp.Close()
		if !errors.Is(err, core.ErrParseWhole) {
			t.Errorf("%s: Continue gave %v, want ErrParseWhole", tc.name, err)
		}
	}
}
