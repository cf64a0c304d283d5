package codex

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ctx/core"
	"ctx/internal/corpus"
	"ctx/sources/sourcestest"
)

// rolloutFiles lists the .jsonl files under dir, sorted.
func rolloutFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

func streamEqualsWhole(t *testing.T, path string) bool {
	t.Helper()
	return sourcestest.StreamEqualsWhole(t, New(), core.SourceFile{Provider: core.ProviderCodex, Path: path})
}

// narrow sets the stream's windows for one test.
func narrow(t *testing.T, window, calls, bytes int) {
	w, c, b := streamWindow, streamCallWindow, streamMaxBytes
	streamWindow, streamCallWindow, streamMaxBytes = window, calls, bytes
	t.Cleanup(func() { streamWindow, streamCallWindow, streamMaxBytes = w, c, b })
}

// generated writes a Codex corpus of about events events and returns its
// rollouts.
func generated(t *testing.T, events int, seed int64) []string {
	t.Helper()
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Events: events, Seed: seed, Providers: []string{core.ProviderCodex}}); err != nil {
		t.Fatal(err)
	}
	files := rolloutFiles(t, home)
	if len(files) < 5 {
		t.Fatalf("%d corpus rollouts", len(files))
	}
	for i, p := range files[:3] { // past the default window of pending events
		if _, err := corpus.Append(p, 4000, seed+int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// Every real rollout streams to what the whole parse gives with the
// default windows; with windows narrowed to nothing, it either streams to
// the same or asks to be parsed whole, never to something else.
func TestStreamEqualsWholeOnFixtures(t *testing.T) {
	files := rolloutFiles(t, fixtureDir(t))
	for _, p := range files {
		if !streamEqualsWhole(t, p) {
			t.Errorf("%s: asked for the whole parse with the default windows", p)
		}
	}
	narrow(t, 0, 0, 0)
	whole := 0
	for _, p := range files {
		if !streamEqualsWhole(t, p) {
			whole++
		}
	}
	t.Logf("narrowed windows: %d of %d fixtures parsed whole", whole, len(files))
}

// The generated corpus (three rollouts grown long, of many chunks; shell calls,
// patches, token counts) streams to what the whole parse gives, in chunks,
// without asking for the whole parse; so it does with the windows cut to
// one chunk.
func TestStreamEqualsWholeOnCorpus(t *testing.T) {
	files := generated(t, 30000, 9)
	long := 0
	for _, p := range files {
		if !streamEqualsWhole(t, p) {
			t.Errorf("%s: asked for the whole parse", p)
		}
		if fi, _ := os.Stat(p); fi != nil && fi.Size() > 1<<20 {
			long++
		}
	}
	if long == 0 {
		t.Fatal("no corpus rollout over 1 MiB: the windows are not exercised")
	}
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<10)
	whole := 0
	for _, p := range files {
		if !streamEqualsWhole(t, p) {
			whole++
		}
	}
	t.Logf("narrowed windows: %d of %d corpus rollouts parsed whole", whole, len(files))
}

const streamMeta = `{"timestamp":"2026-03-01T00:00:00.000Z","type":"session_meta","payload":{"id":"0d0d0d0d-1111-2222-3333-666666666666","cwd":"/w","timestamp":"2026-03-01T00:00:00.000Z"}}`

func streamItem(ts int, payload string) string {
	return fmt.Sprintf(`{"timestamp":"2026-03-01T00:%02d:%02d.000Z","type":"response_item","payload":%s}`, ts/60%60, ts%60, payload)
}

// A record that reaches back past the window (an MCP output marking its
// call captured, an output whose call was forgotten) makes the streamed
// parse ask for the whole one; within the window, and for keys repeated
// far apart, the stream gives what the whole parse gives.
func TestStreamLateRecords(t *testing.T) {
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<20)
	n := 0
	filler := func(k int) []string {
		var out []string
		for range k {
			n++
			out = append(out, streamItem(n, fmt.Sprintf(`{"type":"message","role":"user","content":[{"type":"input_text","text":"prompt %d"}]}`, n)))
		}
		return out
	}
	mcpCall := streamItem(0, `{"type":"function_call","name":"mcp__docs__search","arguments":"{\"q\":\"x\"}","call_id":"m1"}`)
	mcpOut := streamItem(0, `{"type":"function_call_output","call_id":"m1","output":"[{\"type\":\"text\",\"text\":\"found\"}]"}`)
	shell := streamItem(0, `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls\"]}","call_id":"s1"}`)
	shellOut := streamItem(0, `{"type":"function_call_output","call_id":"s1","output":"{\"output\":\"a\\nb\",\"metadata\":{\"exit_code\":0}}"}`)
	noTime := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"again"}]}}`
	cat := func(parts ...[]string) []string { return slices.Concat(parts...) }
	cases := []struct {
		name  string
		recs  []string
		whole bool
	}{
		{"MCP output after the window", cat([]string{streamMeta, mcpCall}, filler(300), []string{mcpOut}), true},
		{"MCP output within the window", cat([]string{streamMeta, mcpCall}, filler(20), []string{mcpOut}), false},
		{"shell output after its call was forgotten", cat([]string{streamMeta, shell}, filler(300), []string{shellOut}), true},
		{"shell output within the window", cat([]string{streamMeta, shell}, filler(30), []string{shellOut}), false},
		{"repeated keys far apart", cat([]string{streamMeta, shell, shellOut}, filler(300), []string{shell, shellOut, noTime}, filler(200), []string{noTime, shell}), false},
		{"no meta: identity from the name at the end", cat(filler(300), []string{shell, shellOut}), false},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("rollout-2026-03-01T00-00-00-0d0d0d0d-1111-2222-3333-77777777777%d.jsonl", i%10))
			if err := os.WriteFile(path, []byte(strings.Join(c.recs, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if streamed := streamEqualsWhole(t, path); streamed == c.whole {
				t.Fatalf("streamed = %v, want %v", streamed, !c.whole)
			}
		})
	}
}

// A file without a session is left to the whole parse, which reports it.
func TestStreamLeavesNoSessionToWhole(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"empty": "", "bad lines": "not json\n{\n"} {
		path := filepath.Join(dir, "rollout-"+strings.ReplaceAll(name, " ", "-")+".jsonl")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := New().ParseStream(core.SourceFile{Provider: core.ProviderCodex, Path: path}, failSink{})
		if !errors.Is(err, core.ErrParseWhole) {
			t.Errorf("%s: %v, want ErrParseWhole", name, err)
		}
	}
}

// A sink's error stops the parse and is returned as it is.
func TestStreamSinkError(t *testing.T) {
	boom := errors.New("boom")
	path := generated(t, 3000, 7)[0]
	_, err := New().ParseStream(core.SourceFile{Provider: core.ProviderCodex, Path: path}, failSink{boom})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the sink's", err)
	}
}

type failSink struct{ err error }

func (s failSink) Begin(*core.Session) error { return s.err }
func (s failSink) Events([]core.Event) error { return s.err }

// A rollout written a piece at a time, each piece read by the parse held
// open since the last, gives at every step what a parse of the whole file
// gives: on long generated rollouts with the default windows and with
// windows of one chunk (where outputs reach back past settled events and
// the parse starts over).
func TestLiveEqualsWhole(t *testing.T) {
	files := generated(t, 20000, 5)[:3]
	sourcestest.LiveEqualsWhole(t, New(), files, func() { narrow(t, core.ChunkSize, core.ChunkSize, 1<<10) })
}

// So does every real rollout, with windows of one chunk.
func TestLiveEqualsWholeOnFixtures(t *testing.T) {
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range rolloutFiles(t, fixtureDir(t)) {
		data, err := os.ReadFile(p)
		if err != nil || len(data) < 2 {
			continue
		}
		sourcestest.GrowLive(t, New(), p, t.TempDir(), sourcestest.CutsOf(data, 6, r))
	}
}

// A parse held open goes on only with the rollout it read.
func TestLiveRefusesAnotherFile(t *testing.T) {
	p := generated(t, 3000, 7)[0]
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sourcestest.LiveRefusesAnotherFile(t, New(), filepath.Base(p), data)
}

// A bad line in the settled part of a rollout stays a problem of every
// later result, as in the whole parse.
func TestLiveKeepsLineProblems(t *testing.T) {
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<10)
	src := generated(t, 3000, 11)[0]
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	half := len(data) / 3
	for data[half-1] != '\n' {
		half--
	}
	bad := slices.Concat(data[:half], []byte("not json\n{\"timestamp\":\"x\",\"type\":7}\n"), data[half:])
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	if _, s := sourcestest.GrowLive(t, New(), path, t.TempDir(), sourcestest.CutsOf(bad, 12, r)); s == 0 {
		t.Fatal("no event settled")
	}
}
