package blame

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/query"
)

// TestEvidenceResolvedThroughStore: with a real store, a cited event of a
// stored session resolves (timestamp, excerpt); an event the store no
// longer holds, or a session it no longer holds, keeps its ids and says
// so; an event filed under another session is still found (through the
// index).
func TestEvidenceResolvedThroughStore(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.write("README.md", "# demo\n")
	s.commit("init")
	s.git("commit", "-q", "--amend", "--no-edit", "--date=2000-01-01T00:00:00Z")
	sid := s.claudeSession(native1, toolUse{ID: "toolu_01write", Name: "Write",
		Input: map[string]any{"file_path": s.dir + "/app.go", "content": agentContent}})
	evt := core.NewEventID(sid, "toolu_01write").String()
	s.write("app.go", agentContent)
	c := s.commit("add app")
	if n := s.link(); n == nil {
		t.Fatal("not linked")
	}
	f := "app.go"
	gone := "evt_" + strings.Repeat("e", 32)
	goneSession := "ses_" + strings.Repeat("f", 32)
	n := &Note{Records: []Record{
		{File: &f, Lines: [][2]int{{1, 1}}, CtxSessionID: sid.String(), CtxEventIDs: []string{evt}, Provider: "claude-code", Match: MatchExactLine},
		{File: &f, Lines: [][2]int{{2, 2}}, CtxSessionID: sid.String(), CtxEventIDs: []string{gone}, Provider: "claude-code", Match: MatchExactLine},
		{File: &f, Lines: [][2]int{{3, 3}}, CtxSessionID: goneSession, CtxEventIDs: []string{gone}, Provider: "codex", Match: MatchExactLine},
		{File: &f, Lines: [][2]int{{4, 4}}, CtxSessionID: goneSession, CtxEventIDs: []string{evt}, Provider: "claude-code", Match: MatchExactLine},
	}}
	if err := s.repo.WriteNote(ctx, c, n); err != nil {
		t.Fatal(err)
	}
	rd, err := query.Open(s.store)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	v, err := BlameFile(ctx, s.repo, FileRequest{Path: "app.go", Dir: s.dir}, NewResolver(rd))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		session, event string
		in             bool
	}{{sid.String(), evt, true}, {sid.String(), gone, false}, {goneSession, gone, false}, {goneSession, evt, true}}
	for i, w := range want {
		e := v.Lines[i].Evidence
		if len(e) != 1 || e[0].CtxSessionID != w.session || e[0].CtxEventID != w.event || e[0].InStore != w.in {
			t.Fatalf("line %d: %+v", i+1, e)
		}
		if w.in && (e[0].Timestamp == nil || !strings.HasPrefix(e[0].Excerpt, "Write ")) {
			t.Fatalf("line %d not resolved: %+v", i+1, e[0])
		}
		if !w.in && (e[0].Timestamp != nil || e[0].Excerpt != "") {
			t.Fatalf("line %d: gone evidence has content: %+v", i+1, e[0])
		}
	}
}

// TestBadInputMore: the cases TestBlameBadInput leaves out.
func TestBadInputMore(t *testing.T) {
	ctx := context.Background()
	if _, err := OpenRepo(ctx, t.TempDir()); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("not a repository: %v", err)
	}
	s := newSandbox(t)
	// No commits: every entry point says so.
	if _, err := BlameCommit(ctx, s.repo, "HEAD", NewResolver(nil)); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("commit view, no commits: %v", err)
	}
	if _, err := BlamePR(ctx, s.repo, "HEAD~1..HEAD"); !errors.Is(err, ErrBadRevision) {
		t.Fatalf("range, no commits: %v", err)
	}
	if _, err := Link(ctx, s.repo, "HEAD", LinkOptions{Home: s.store}); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("link, no commits: %v", err)
	}
	// A binary file deleted from the working copy is judged at HEAD.
	s.write("bin.dat", "a\x00b\n")
	s.write("a.txt", "one\n")
	s.commit("init")
	if err := os.Remove(filepath.Join(s.dir, "bin.dat")); err != nil {
		t.Fatal(err)
	}
	if _, err := BlameFile(ctx, s.repo, FileRequest{Path: "bin.dat", Dir: s.dir}, NewResolver(nil)); !errors.Is(err, ErrBinary) {
		t.Fatalf("binary at HEAD: %v", err)
	}
	// A directory is not a file blame can read.
	s.write("sub/x.txt", "x\n")
	s.commit("sub")
	if _, err := BlameFile(ctx, s.repo, FileRequest{Path: "sub", Dir: s.dir}, NewResolver(nil)); !errors.Is(err, ErrNotTracked) {
		t.Fatalf("directory: %v", err)
	}
	// Detached HEAD: a commit made there links and blames like any other.
	s.git("checkout", "-q", "--detach")
	s.write("a.txt", "one\ntwo\n")
	s.commit("detached")
	if _, err := Link(ctx, s.repo, "HEAD", LinkOptions{Home: s.store}); err != nil {
		t.Fatalf("link on a detached HEAD: %v", err)
	}
	if v, err := BlameFile(ctx, s.repo, FileRequest{Path: "a.txt", Dir: s.dir}, NewResolver(nil)); err != nil || len(v.Lines) != 2 {
		t.Fatalf("blame on a detached HEAD: %v", err)
	}
	// Uncommitted lines blame to no commit and carry no evidence.
	s.write("a.txt", "one\ntwo\nthree\n")
	v, err := BlameFile(ctx, s.repo, FileRequest{Path: "a.txt", Dir: s.dir}, NewResolver(nil))
	if err != nil || len(v.Lines) != 3 || v.Lines[2].Commit != zeroCommit || len(v.Lines[2].Evidence) != 0 {
		t.Fatalf("uncommitted line: %+v %v", v, err)
	}
}
