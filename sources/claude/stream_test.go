package claude

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/internal/corpus"
	"ctx/sources/sourcestest"
)

// streamEqualsWhole parses path whole and streamed and fails unless both
// give the same session, events and problems; it returns false when the
// streamed parse asked for the whole one instead.
func streamEqualsWhole(t *testing.T, path string) bool {
	t.Helper()
	return sourcestest.StreamEqualsWhole(t, New(), core.SourceFile{Provider: core.ProviderClaude, Path: path})
}

// narrow sets the stream's windows for one test.
func narrow(t *testing.T, window, calls, bytes int) {
	w, c, b := streamWindow, streamCallWindow, streamMaxBytes
	streamWindow, streamCallWindow, streamMaxBytes = window, calls, bytes
	t.Cleanup(func() { streamWindow, streamCallWindow, streamMaxBytes = w, c, b })
}

// Every fixture streams to what the whole parse gives, with the default
// windows; with windows narrowed to nothing, a fixture either streams to
// the same or asks to be parsed whole, never to something else.
func TestStreamEqualsWholeOnFixtures(t *testing.T) {
	for _, path := range fixtureFiles(t) {
		if !streamEqualsWhole(t, path) {
			t.Errorf("%s: asked for the whole parse with the default windows", path)
		}
	}
	narrow(t, 0, 0, 0)
	whole := 0
	for _, path := range fixtureFiles(t) {
		if !streamEqualsWhole(t, path) {
			whole++
		}
	}
	t.Logf("narrowed windows: %d of %d fixtures parsed whole", whole, len(fixtureFiles(t)))
}

// The generated corpus (long sessions of many chunks, subagents, tool
// calls, streamed messages) streams to what the whole parse gives, in
// chunks, without asking for the whole parse; so it does with the window
// cut to one chunk, where messages close right behind the last line.
func TestStreamEqualsWholeOnCorpus(t *testing.T) {
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Events: 30000, Seed: 9, Providers: []string{core.ProviderClaude}}); err != nil {
		t.Fatal(err)
	}
	var files []string
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if len(files) < 5 {
		t.Fatalf("%d corpus files", len(files))
	}
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
		t.Fatal("no corpus file over 1 MiB: the windows are not exercised")
	}
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<10)
	whole := 0
	for _, p := range files {
		if !streamEqualsWhole(t, p) {
			whole++
		}
	}
	t.Logf("narrowed windows: %d of %d corpus files parsed whole", whole, len(files))
}

// A record that reaches back past the window (a streamed message's late
// block, its late usage, a late tool result, an event key repeated by a
// record of another kind) makes the streamed parse ask for the whole one;
// repeats and duplicates the stream can still number stream as the whole
// parse numbers them.
func TestStreamLateRecords(t *testing.T) {
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<20)
	user := func(i int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"u%d",`+sid+`,"message":{"role":"user","content":"prompt %d"}}`, i, i)
	}
	filler := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, user(1000+i))
		}
		return out
	}
	asst := func(uuid, id, block string) string {
		return `{"type":"assistant","uuid":"` + uuid + `",` + sid + `,"message":{"id":"` + id + `","model":"m","content":[` + block + `],"usage":{"input_tokens":3,"output_tokens":4}}}`
	}
	text := `{"type":"text","text":"more"}`
	use := `{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}`
	result := `{"type":"user","uuid":"r1",` + sid + `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`
	cases := []struct {
		name  string
		recs  []string
		whole bool
	}{
		{"message block after the window", append(append([]string{asst("a1", "msg_1", text)}, filler(300)...), asst("a2", "msg_1", text)), true},
		{"message block within the window", append(append([]string{asst("a1", "msg_1", text)}, filler(20)...), asst("a2", "msg_1", text)), false},
		{"tool result after the window", append(append([]string{asst("a1", "msg_1", use)}, filler(300)...), result), true},
		{"tool result within the window", append(append([]string{asst("a1", "msg_1", use)}, filler(30)...), result), false},
		{"message id that is an earlier uuid", append(append([]string{user(1)}, filler(2)...), asst("a9", "u1", text)), true},
		{"duplicate uuid far behind", append(append([]string{user(1)}, filler(300)...), user(1), user(2)), false},
		{"repeated bookkeeping keys", append(append([]string{`{"type":"last-prompt"}`}, filler(300)...), `{"type":"last-prompt"}`, `{"type":"permission-mode","permissionMode":"x"}`, `{"type":"last-prompt"}`), false},
		{"key repeated by its numbered form", []string{`{"type":"last-prompt"}`, `{"type":"last-prompt"}`, `{"type":"last-prompt~1","uuid":"z"}`, `{"type":"x","uuid":"last-prompt"}`}, true},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("11111111-2222-3333-4444-55555555555%d.jsonl", i%10))
			if err := os.WriteFile(path, []byte(lines(c.recs...)), 0o600); err != nil {
				t.Fatal(err)
			}
			if streamed := streamEqualsWhole(t, path); streamed == c.whole {
				t.Fatalf("streamed = %v, want %v", streamed, !c.whole)
			}
		})
	}
}

// A sink's error stops the parse and is returned as it is.
func TestStreamSinkError(t *testing.T) {
	boom := errors.New("boom")
	_, err := New().ParseStream(core.SourceFile{Provider: core.ProviderClaude, Path: fixtureFiles(t)[0]}, failSink{boom})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the sink's", err)
	}
}

type failSink struct{ err error }

func (s failSink) Begin(*core.Session) error { return s.err }
func (s failSink) Events([]core.Event) error { return s.err }
