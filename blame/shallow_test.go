package blame

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shallowSandbox makes a sandbox whose repository is a real
// `git clone --depth 1` of an upstream with three commits of app.go.
func shallowSandbox(t *testing.T) (s *sandbox, boundary string) {
	t.Helper()
	s = newSandbox(t)
	up := filepath.Join(filepath.Dir(s.dir), "upstream")
	if err := os.Rename(s.dir, up); err != nil {
		t.Fatal(err)
	}
	upstream := &sandbox{t: t, dir: up}
	body := ""
	for i := 1; i <= 3; i++ {
		body += fmt.Sprintf("func Old%d() int { return %d }\n", i, i)
		upstream.write("app.go", body)
		upstream.commit(fmt.Sprintf("old %d", i))
	}
	upstream.git("clone", "-q", "--depth", "1", "file://"+up, s.dir)
	s.git("config", "user.name", "Test Human")
	s.git("config", "user.email", "human@example.com")
	repo, err := OpenRepo(context.Background(), s.dir)
	if err != nil {
		t.Fatal(err)
	}
	s.repo = repo
	return s, s.git("rev-parse", "HEAD")
}

// TestShallowCloneBlame: in a depth-1 clone, lines git blames on the
// boundary commit are marked shallow with an explanation, a note on the
// boundary commit still gives its evidence, lines of later commits are
// plain, and ranges reaching past the boundary say why they fail.
func TestShallowCloneBlame(t *testing.T) {
	ctx := context.Background()
	s, boundary := shallowSandbox(t)
	if got := s.repo.Shallow(ctx); !got[boundary] || len(got) != 1 {
		t.Fatalf("shallow boundary: %v", got)
	}
	f := "app.go"
	n := &Note{Records: []Record{{File: &f, Lines: [][2]int{{3, 3}}, CtxSessionID: "ses_" + strings.Repeat("c", 32),
		CtxEventIDs: []string{"evt_" + strings.Repeat("d", 32)}, Provider: "codex", NativeSessionID: "n", Match: MatchExactLine}}}
	if err := s.repo.WriteNote(ctx, boundary, n); err != nil {
		t.Fatal(err)
	}
	s.write("app.go", "func Old1() int { return 1 }\nfunc Old2() int { return 2 }\nfunc Old3() int { return 3 }\nfunc New() {}\n")
	head := s.commit("new")

	v, err := BlameFile(ctx, s.repo, FileRequest{Path: "app.go", Dir: s.dir}, NewResolver(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Lines) != 4 {
		t.Fatalf("lines %+v", v.Lines)
	}
	for i, l := range v.Lines[:3] {
		if !l.Shallow || l.Commit != boundary {
			t.Fatalf("line %d: %+v", i+1, l)
		}
	}
	if l := v.Lines[3]; l.Shallow || l.Commit != head {
		t.Fatalf("line 4: %+v", l)
	}
	if len(v.Lines[2].Evidence) != 1 || len(v.Lines[0].Evidence) != 0 {
		t.Fatalf("evidence on the boundary commit: %+v", v.Lines)
	}
	if len(v.Problems) != 1 || !strings.Contains(v.Problems[0], "shallow clone: 3 lines") {
		t.Fatalf("problems %v", v.Problems)
	}

	// Linking the commit on top of the boundary works as usual.
	c, err := s.repo.Commit(ctx, "HEAD")
	if err != nil || c.Parent != boundary || c.PTime == 0 {
		t.Fatalf("commit on the boundary: %+v %v", c, err)
	}
	added, err := s.repo.AddedLines(ctx, c)
	if err != nil || len(added.Files["app.go"]) != 1 {
		t.Fatalf("added: %+v %v", added, err)
	}

	// Ranges and revisions past the boundary name the shallow clone.
	if _, err := BlamePR(ctx, s.repo, "HEAD~2..HEAD"); !errors.Is(err, ErrBadRevision) || !strings.Contains(err.Error(), "shallow clone") {
		t.Fatalf("range past the boundary: %v", err)
	}
	if _, err := BlameCommit(ctx, s.repo, "HEAD~2", NewResolver(nil)); !errors.Is(err, ErrBadRevision) || !strings.Contains(err.Error(), "shallow clone") {
		t.Fatalf("revision past the boundary: %v", err)
	}
	// A range that takes in the boundary commit skips it and says why.
	s.git("checkout", "-q", "--orphan", "side")
	s.write("other.txt", "x\n")
	s.git("rm", "-q", "--cached", "app.go")
	s.commit("side root")
	pr, err := BlamePR(ctx, s.repo, "side..main")
	if err != nil || pr.Commits != 1 || pr.AddedLines != 1 || len(pr.Problems) != 1 || !strings.Contains(pr.Problems[0], "boundary") {
		t.Fatalf("range with the boundary: %+v %v", pr, err)
	}
	// The boundary commit's own view lists its note.
	cv, err := BlameCommit(ctx, s.repo, boundary, NewResolver(nil))
	if err != nil || len(cv.Files) != 1 {
		t.Fatalf("boundary commit view: %+v %v", cv, err)
	}
}

// TestCommitWithUnreadableParent: a commit whose parent object is missing
// (a parent from before a shallow clone's boundary) is ErrNoParent with the
// shallow hint, from linking and from the commit view, which still lists
// its note.
func TestCommitWithUnreadableParent(t *testing.T) {
	ctx := context.Background()
	s, boundary := shallowSandbox(t)
	raw := s.git("cat-file", "commit", boundary)
	parent := ""
	for _, l := range strings.Split(raw, "\n") {
		if p, ok := strings.CutPrefix(l, "parent "); ok {
			parent = p
		}
	}
	if parent == "" {
		t.Fatal("the boundary commit names no parent")
	}
	tree := s.git("rev-parse", "HEAD^{tree}")
	obj := fmt.Sprintf("tree %s\nparent %s\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n\norphaned\n", tree, parent)
	id, err := s.repo.GitIn(ctx, []byte(obj), "hash-object", "-t", "commit", "-w", "--stdin")
	if err != nil {
		t.Fatal(err)
	}
	id = strings.TrimSpace(id)
	if _, err := s.repo.Commit(ctx, id); !errors.Is(err, ErrNoParent) || !strings.Contains(err.Error(), "shallow clone") {
		t.Fatalf("Commit: %v", err)
	}
	if _, err := Link(ctx, s.repo, id, LinkOptions{Home: s.store}); !errors.Is(err, ErrNoParent) {
		t.Fatalf("Link: %v", err)
	}
	f := "app.go"
	if err := s.repo.WriteNote(ctx, id, &Note{Records: []Record{{File: &f, Lines: [][2]int{{1, 1}},
		CtxSessionID: "ses_x", Provider: "codex", Match: MatchExactLine}}}); err != nil {
		t.Fatal(err)
	}
	cv, err := BlameCommit(ctx, s.repo, id, NewResolver(nil))
	if err != nil || len(cv.Files) != 1 || len(cv.Problems) != 1 || !strings.Contains(cv.Problems[0], "parent is not in this repository") {
		t.Fatalf("commit view: %+v %v", cv, err)
	}
}
