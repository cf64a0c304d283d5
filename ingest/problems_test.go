package ingest_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ctx/core"
	"ctx/ingest"
	"ctx/query"
	"ctx/sources/jsonl"
)

func problemCounts(t *testing.T, store string) map[string]int {
	t.Helper()
	st, err := query.ReadStatus(store)
	if err != nil {
		t.Fatal(err)
	}
	return st.Problems
}

func writeClaude(t *testing.T, home, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(home, ".claude", "projects", "-work-demo", name+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func claudeUser(uuid, text string) string {
	return `{"type":"user","uuid":"` + uuid + `","sessionId":"s1","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/work/demo",` +
		`"message":{"role":"user","content":"` + text + `"}}`
}

// TestProblemCountsFollowTheCause: once the cause of a counted problem is
// gone, the next import's counts say so, even when nothing else changed
// (before, an import that changed no session published nothing and status
// kept the old counts).
func TestProblemCountsFollowTheCause(t *testing.T) {
	f := newFixture(t, 0)
	good := claudeUser("u1", "find the flakyWidget bug")
	path := writeClaude(t, f.home, "s1", good, `{"type":"user",`)
	fifo := filepath.Join(f.home, ".codex", "sessions", "2025", "01", "02", "rollout-2025-01-02T03-04-05-0198a6f0-0000-7000-8000-000000000001.jsonl")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	f.importOnce(t)
	if got := problemCounts(t, f.store); got[core.ProblemNotRegular] != 1 || got[core.ProblemInvalidJSON] != 1 {
		t.Fatalf("first import counted %v", got)
	}

	if err := os.Remove(fifo); err != nil {
		t.Fatal(err)
	}
	if rep := f.importOnce(t); !rep.Published {
		t.Error("the import after the FIFO went published nothing")
	}
	if got := problemCounts(t, f.store); got[core.ProblemNotRegular] != 0 || got[core.ProblemInvalidJSON] != 1 {
		t.Fatalf("after removing the FIFO: %v, want invalid_json only", got)
	}

	// The bad line fixed in place: the same session and events, new counts.
	writeClaude(t, f.home, "s1", good)
	f.importOnce(t)
	if got := problemCounts(t, f.store); len(got) != 0 {
		t.Fatalf("after fixing %s: %v, want none", filepath.Base(path), got)
	}
	if rep := f.importOnce(t); rep.Published {
		t.Error("an import with nothing changed published")
	}
}

// TestOverLongLineCountedOnce: a file whose one line is over the line limit
// is one line_too_long, not also an empty_file.
func TestOverLongLineCountedOnce(t *testing.T) {
	f := newFixture(t, 0)
	writeClaude(t, f.home, "s1", claudeUser("u1", strings.Repeat("x", jsonl.MaxLine)))
	f.importOnce(t)
	got := problemCounts(t, f.store)
	if got[core.ProblemLineTooLong] != 1 || got[core.ProblemEmptyFile] != 0 {
		t.Fatalf("counted %v, want line_too_long once and no empty_file", got)
	}
}

// TestBadBytesKeepTheRecord: a record with an invalid UTF-8 sequence or a
// raw NUL byte in its text is kept, the bad bytes replaced by U+FFFD, and
// counted as replaced_bytes.
func TestBadBytesKeepTheRecord(t *testing.T) {
	f := newFixture(t, 0)
	writeClaude(t, f.home, "s1",
		claudeUser("u1", "latin1 caf\xe9 flakyWidget"),
		claudeUser("u2", "a raw \x00 byte flakyWidget"),
		claudeUser("u3", "clean flakyWidget"))
	f.importOnce(t)
	if got := problemCounts(t, f.store); got[core.ProblemReplacedBytes] != 2 || len(got) != 1 {
		t.Fatalf("counted %v, want replaced_bytes twice", got)
	}
	r, err := query.Open(f.store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := r.Search(context.Background(), query.SearchRequest{Query: "flakyWidget"})
	if err != nil || len(res.Results) != 3 {
		t.Fatalf("%d of 3 records found (%v)", len(res.Results), err)
	}
	texts := ""
	for _, h := range res.Results {
		ev, err := r.ShowEvent(h.CtxEventID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		texts += ev.Event.Text + "\n"
	}
	for _, want := range []string{"caf\uFFFD flakyWidget", "a raw \uFFFD byte"} {
		if !strings.Contains(texts, want) {
			t.Errorf("no event text holds %q:\n%s", want, texts)
		}
	}
}

// TestNamedPassesOverQuietFiles: with Options.Named, a run reads the files
// an event named and passes over the others without a stat, unless the
// run before met a problem in them (so that its count stays) or the state
// was read from the store (nothing is known of the files then).
func TestNamedPassesOverQuietFiles(t *testing.T) {
	f := newFixture(t, 0)
	a := writeClaude(t, f.home, "a", claudeUser("a1", "alpha one"))
	b := writeClaude(t, f.home, "b", claudeUser("b1", "bravo one"))
	f.importOnce(t)
	run := func(named ...string) *ingest.Report {
		t.Helper()
		set := map[string]bool{}
		for _, p := range named {
			set[p] = true
		}
		rep, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(),
			Sources: automatic(), Version: "test", Named: func(p string) bool { return set[p] }})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	grow := func(path string, lines ...string) {
		t.Helper()
		fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		if _, err := fh.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	grow(a, claudeUser("a2", "alpha two"))
	grow(b, claudeUser("b2", "bravo two"))
	if rep := run(a); rep.FilesRead != 1 || !rep.Published {
		t.Fatalf("a named: %d files read, published %v", rep.FilesRead, rep.Published)
	}
	if rep := run(); rep.FilesRead != 0 || rep.Published {
		t.Fatalf("nothing named: %d files read, published %v; b grew unseen and is passed over", rep.FilesRead, rep.Published)
	}
	if rep := f.importOnce(t); rep.FilesRead != 1 {
		t.Fatalf("a run without Named read %d files, want b", rep.FilesRead)
	}

	// A Codex rollout (read whole) with nothing readable left keeps its
	// cursor, and counts its problem in every run that looks at it.
	rollout := filepath.Join(f.home, ".codex", "sessions", "2025", "12", "15", "rollout-2025-12-15T11-00-35-019b0000-0000-7000-8000-000000000001.jsonl")
	if err := os.MkdirAll(filepath.Dir(rollout), 0o700); err != nil {
		t.Fatal(err)
	}
	meta := `{"timestamp":"2025-12-15T11:00:35.387Z","type":"session_meta","payload":{"id":"019b0000-0000-7000-8000-000000000001","timestamp":"2025-12-15T11:00:35.384Z","cwd":"/w"}}`
	user := `{"timestamp":"2025-12-15T11:00:36Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"delta one"}]}}`
	if err := os.WriteFile(rollout, []byte(meta+"\n"+user+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.importOnce(t)
	if err := os.WriteFile(rollout, []byte(`{"type":"session_meta",`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.importOnce(t)
	before := problemCounts(t, f.store)
	if len(before) == 0 {
		t.Fatal("a rollout with nothing readable counted no problem")
	}
	if rep := run(); rep.Published || !maps.Equal(problemCounts(t, f.store), before) {
		t.Fatalf("nothing named: published %v, counts %v, were %v; the rollout's problem must be looked at again",
			rep.Published, problemCounts(t, f.store), before)
	}

	ingest.ForgetKept()
	grow(b, claudeUser("b3", "bravo three"))
	if rep := run(); rep.FilesRead != 1 {
		t.Fatalf("a state read from the store: %d files read, want b", rep.FilesRead)
	}
}
