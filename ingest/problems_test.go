package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ctx/core"
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
