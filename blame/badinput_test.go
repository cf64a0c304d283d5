package blame

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseNoteBadInput(t *testing.T) {
	for name, tc := range map[string]struct {
		note string
		want error
	}{
		"not json":     {"hello\n", ErrBadNote},
		"no header":    {`{"file":"a","ctx_session_id":"ses_x","match":"exact_line"}` + "\n", ErrBadNote},
		"newer":        {`{"ctx_notes":2}` + "\n", ErrNewerNote},
		"bad record":   {`{"ctx_notes":1}` + "\n" + `{"file":3}` + "\n", ErrBadNote},
		"concatenated": {`{"ctx_notes":1}` + "\n\n" + `{"ctx_notes":1}` + "\n", nil},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseNote([]byte(tc.note))
			if !errors.Is(err, tc.want) && !(tc.want == nil && err == nil) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// TestBlameBadInput: each bad input is a clear error or a reported
// problem, never a crash.
func TestBlameBadInput(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	rs := NewResolver(nil)
	if _, err := BlameFile(ctx, s.repo, FileRequest{Path: "a.txt", Dir: s.dir}, rs); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("no commits: %v", err)
	}
	s.write("a.txt", "one\ntwo\n")
	s.write("bin.dat", "a\x00b\n")
	c := s.commit("init")
	for name, tc := range map[string]struct {
		req  FileRequest
		want error
	}{
		"outside":   {FileRequest{Path: "/etc/passwd", Dir: s.dir}, ErrOutside},
		"dotdot":    {FileRequest{Path: "../x", Dir: s.dir}, ErrOutside},
		"binary":    {FileRequest{Path: "bin.dat", Dir: s.dir}, ErrBinary},
		"untracked": {FileRequest{Path: "nope.txt", Dir: s.dir}, ErrNotTracked},
		"range":     {FileRequest{Path: "a.txt", Dir: s.dir, Start: 5, End: 6}, ErrNoLinesInFile},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := BlameFile(ctx, s.repo, tc.req, rs); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	// A garbage note and a newer note are reported and ignored.
	if _, err := s.repo.GitIn(ctx, []byte("not json lines\n"), "notes", "--ref", NotesRef, "add", "-f", "-F", "-", c); err != nil {
		t.Fatal(err)
	}
	v, err := BlameFile(ctx, s.repo, FileRequest{Path: "a.txt", Dir: s.dir}, rs)
	if err != nil || len(v.Problems) != 1 || !strings.Contains(v.Problems[0], "not ctx JSON Lines") || len(v.Lines) != 2 {
		t.Fatalf("bad note: %+v %v", v, err)
	}
	if _, err := s.repo.GitIn(ctx, []byte(`{"ctx_notes":9}`+"\n"), "notes", "--ref", NotesRef, "add", "-f", "-F", "-", c); err != nil {
		t.Fatal(err)
	}
	cv, err := BlameCommit(ctx, s.repo, "HEAD", rs)
	if err != nil || len(cv.Problems) != 1 || !strings.Contains(cv.Problems[0], "newer ctx") {
		t.Fatalf("newer note: %+v %v", cv, err)
	}
	// Detached HEAD: blame answers as on a branch.
	s.git("checkout", "-q", "--detach")
	if v, err := BlameFile(ctx, s.repo, FileRequest{Path: "a.txt", Dir: s.dir}, rs); err != nil || len(v.Lines) != 2 {
		t.Fatalf("detached: %v", err)
	}
}

// TestEvidenceNotInStore: a note naming an event the store does not hold
// keeps the ids and says so.
func TestEvidenceNotInStore(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.write("a.txt", "one\n")
	c := s.commit("init")
	f := "a.txt"
	n := &Note{Records: []Record{{File: &f, Lines: [][2]int{{1, 1}}, CtxSessionID: "ses_" + strings.Repeat("a", 32),
		CtxEventIDs: []string{"evt_" + strings.Repeat("b", 32)}, Provider: "codex", NativeSessionID: "n", Match: MatchExactLine}}}
	if err := s.repo.WriteNote(ctx, c, n); err != nil {
		t.Fatal(err)
	}
	v, err := BlameFile(ctx, s.repo, FileRequest{Path: filepath.Join(s.dir, "a.txt"), Dir: os.TempDir()}, NewResolver(nil))
	if err != nil {
		t.Fatal(err)
	}
	e := v.Lines[0].Evidence
	if len(e) != 1 || e[0].InStore || e[0].CtxEventID != n.Records[0].CtxEventIDs[0] {
		t.Fatalf("evidence %+v", e)
	}
}
