package blame

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFileMapLine(t *testing.T) {
	// Old 10 lines; line 3 replaced by two lines, two lines inserted after
	// line 6, lines 8-9 deleted.
	m := &fileMap{newPath: "a", hunks: [][4]int{{3, 1, 3, 2}, {6, 0, 8, 2}, {8, 2, 11, 0}}}
	want := map[int]int{1: 1, 2: 2, 3: 0, 4: 5, 5: 6, 6: 7, 7: 10, 8: 0, 9: 0, 10: 11}
	for old, nw := range want {
		got, ok := m.line(old)
		if (nw == 0) == ok || (ok && got != nw) {
			t.Errorf("line %d → %d,%v; want %d", old, got, ok, nw)
		}
	}
	if _, ok := (&fileMap{}).line(1); ok {
		t.Error("a deleted file maps a line")
	}
}

// TestTreeMapsFollowsRenames: the diff between two commits moves lines,
// drops changed ones and follows a rename even when only the old path is
// asked for.
func TestTreeMapsFollowsRenames(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	body := []string{}
	for i := range 12 {
		body = append(body, strings.Repeat("x", i+1)+" line of the file that makes it long enough to rename")
	}
	s.write("old name.go", strings.Join(body, "\n")+"\n")
	s.write("same.go", "one\n")
	s.write("gone.go", "bye\n")
	c1 := s.commit("one")
	s.git("mv", "old name.go", "new name.go")
	changed := append([]string{"a new first line"}, body...)
	changed[5] = "changed"
	s.write("new name.go", strings.Join(changed, "\n")+"\n")
	s.git("rm", "-q", "gone.go")
	c2 := s.commit("two")
	maps, err := s.repo.treeMaps(ctx, c1, c2, []string{"old name.go", "same.go", "gone.go"})
	if err != nil {
		t.Fatal(err)
	}
	m := maps["old name.go"]
	if m == nil || m.newPath != "new name.go" {
		t.Fatalf("rename not followed: %+v", m)
	}
	if n, ok := m.line(1); !ok || n != 2 {
		t.Errorf("line 1 → %d %v, want 2", n, ok)
	}
	if _, ok := m.line(5); ok {
		t.Error("a changed line kept its place")
	}
	if _, ok := maps["same.go"]; ok {
		t.Error("an unchanged file is in the diff")
	}
	if g := maps["gone.go"]; g == nil || g.newPath != "" {
		t.Errorf("a deleted file maps: %+v", g)
	}
}

// TestRewriteBadInput: an unreadable note on an old commit, a newer note
// on the new commit, a binary file and a commit that does not exist are
// logged and skipped; nothing crashes and nothing else is written.
func TestRewriteBadInput(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.write("a.txt", "one\ntwo\n")
	s.write("bin.dat", "a\x00b\nc\n")
	c1 := s.commit("one")
	s.write("a.txt", "zero\none\ntwo\n")
	s.git("commit", "-q", "-a", "--amend", "--no-edit")
	c2 := s.git("rev-parse", "HEAD")
	var logs []string
	logf := func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }

	// Garbage on the old commit: logged, nothing carried.
	if _, err := s.repo.GitIn(ctx, []byte("not json\n"), "notes", "--ref", NotesRef, "add", "-f", "-F", "-", c1); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(ctx, s.repo, []Pair{{c1, c2}, {strings.Repeat("f", 40), c2}}, logf); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.repo.ReadNote(ctx, c2); n != nil {
		t.Fatalf("a garbage note was carried: %+v", n)
	}
	if len(logs) == 0 || !strings.Contains(strings.Join(logs, "\n"), "not ctx JSON Lines") {
		t.Fatalf("logs %q", logs)
	}

	// A valid note whose records name a text and a binary file: the text
	// lines move, the binary record is dropped.
	a, bin := "a.txt", "bin.dat"
	good := &Note{Records: []Record{
		{File: &a, Lines: [][2]int{{1, 2}}, CtxSessionID: "ses_" + strings.Repeat("a", 32), CtxEventIDs: []string{"evt_" + strings.Repeat("b", 32)}, Provider: "codex", NativeSessionID: "n", Match: MatchExactLine},
		{File: &bin, Lines: [][2]int{{1, 1}}, CtxSessionID: "ses_" + strings.Repeat("a", 32), CtxEventIDs: []string{"evt_" + strings.Repeat("c", 32)}, Provider: "codex", NativeSessionID: "n", Match: MatchExactLine},
	}}
	if err := s.repo.WriteNote(ctx, c1, good); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(ctx, s.repo, []Pair{{c1, c2}, {c1, strings.Repeat("e", 40)}}, logf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(logs, "\n"), "eeeeeeeeeeee: not found") {
		t.Errorf("a missing new commit was not reported: %q", logs)
	}
	n, err := s.repo.ReadNote(ctx, c2)
	if err != nil || n == nil || len(n.Records) != 1 || *n.Records[0].File != "a.txt" || !slices.Equal(n.Records[0].Lines, [][2]int{{2, 3}}) {
		t.Fatalf("carried %+v %v", n, err)
	}

	// A note from a newer ctx on the new commit is left as it is.
	newer := `{"ctx_notes":9}` + "\n"
	if _, err := s.repo.GitIn(ctx, []byte(newer), "notes", "--ref", NotesRef, "add", "-f", "-F", "-", c2); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(ctx, s.repo, []Pair{{c1, c2}}, logf); err != nil {
		t.Fatal(err)
	}
	if got := s.git("notes", "--ref", NotesRef, "show", c2); got+"\n" != newer {
		t.Fatalf("a newer note was rewritten: %q", got)
	}
	if st := s.git("status", "--porcelain"); st != "" {
		t.Fatalf("the work tree changed: %s", st)
	}
}

// TestDerivedBadInput: post-commit on a detached HEAD still carries a
// cherry-pick's note; LinkFrom rejects a bad range and an empty repository
// clearly; a repository without commits has a readable state.
func TestDerivedBadInput(t *testing.T) {
	ctx := context.Background()
	empty := newSandbox(t)
	if st, err := empty.repo.State(ctx); err != nil || st.InRebase || len(st.Reflog) != 0 {
		t.Fatalf("empty repository state %+v %v", st, err)
	}
	if _, err := LinkFrom(ctx, empty.repo, "HEAD", ""); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("no commits: %v", err)
	}

	s := newSandbox(t)
	s.write("a.txt", "base\n")
	s.commit("base")
	s.git("checkout", "-q", "-b", "side")
	s.write("p.txt", "picked line\n")
	src := s.commit("pick me")
	p := "p.txt"
	if err := s.repo.WriteNote(ctx, src, &Note{Records: []Record{{File: &p, Lines: [][2]int{{1, 1}},
		CtxSessionID: "ses_" + strings.Repeat("a", 32), CtxEventIDs: []string{"evt_" + strings.Repeat("b", 32)},
		Provider: "codex", NativeSessionID: "n", Match: MatchExactLine}}}); err != nil {
		t.Fatal(err)
	}
	s.git("checkout", "-q", "--detach", "main")
	s.write("a.txt", "base\nmoved on\n") // else the pick may be src itself, same second and parent
	s.commit("main moves")
	s.git("cherry-pick", src)
	st, err := s.repo.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Link(ctx, s.repo, "HEAD", LinkOptions{Home: filepath.Join(t.TempDir(), "none"), State: st})
	if err != nil || n == nil || len(n.Records) != 1 || *n.Records[0].File != "p.txt" {
		t.Fatalf("detached cherry-pick: %+v %v", n, err)
	}
	if _, err := LinkFrom(ctx, s.repo, "HEAD", "nope..side"); !errors.Is(err, ErrBadRevision) {
		t.Fatalf("bad range: %v", err)
	}
	if st := s.git("status", "--porcelain"); st != "" {
		t.Fatalf("the work tree changed: %s", st)
	}
}

// TestAddedBatchEqualsAddedLines: the one-process batch gives every commit,
// a merge included, the added lines AddedLines gives it alone.
func TestAddedBatchEqualsAddedLines(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.write("a.txt", "1\n2\n3\n")
	s.commit("one")
	s.git("checkout", "-q", "-b", "side")
	s.write("a.txt", "1\n2\n3\nside\n")
	s.write("b.txt", "b\n")
	s.commit("side")
	s.git("checkout", "-q", "main")
	s.write("a.txt", "main\n1\n2\n3\n")
	s.commit("main")
	s.git("merge", "-q", "--no-edit", "side")
	s.write("a.txt", "main\n1\n2\nevil\n3\nside\n")
	s.git("commit", "-q", "-a", "--amend", "--no-edit")
	ids := strings.Fields(s.git("rev-list", "--reverse", "HEAD"))
	cs, err := s.repo.commitsParents(ctx, ids)
	if err != nil || len(cs) != len(ids) {
		t.Fatalf("%d commits: %v", len(cs), err)
	}
	batch, err := s.repo.addedBatch(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		c, err := s.repo.Commit(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		one, err := s.repo.AddedLines(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(one.Files) != fmt.Sprint(batch[id].Files) {
			t.Errorf("%s: batch %v, alone %v", c.Subject, batch[id].Files, one.Files)
		}
	}
	merge, _ := s.repo.Commit(ctx, "HEAD")
	if got, _ := s.repo.AddedLines(ctx, merge); len(got.Files) != 1 || len(got.Files["a.txt"]) != 1 || got.Files["a.txt"][0].Text != "evil" {
		t.Errorf("merge adds %v, want only its own line", got.Files)
	}
}

// TestDerivedFromSignals: each signal names its sources, and a plain commit
// names none even with a stale ORIG_HEAD and reflog around.
func TestDerivedFromSignals(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.write("a.txt", "a\n")
	base := s.commit("base")
	s.write("b.txt", "b\n")
	side := s.commit("side")
	s.git("reset", "-q", "--hard", base) // ORIG_HEAD = side, HEAD = base
	s.write("c.txt", "c\n")
	afterHard := s.commit("after a hard reset")
	s.write("c.txt", "c\nd\n")
	plain := s.commit("plain")
	derived := func(rev string, edit func(*State)) []string {
		t.Helper()
		c, err := s.repo.Commit(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.repo.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			edit(st)
		}
		got, err := s.repo.derivedFrom(ctx, c, st)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := derived(plain, nil); len(got) != 0 {
		t.Fatalf("a plain commit is derived from %v", got)
	}
	// The reflog says reset then commit: the commits reset away. After a
	// hard reset they carry nothing the new commit did not keep.
	s.git("reset", "-q", "--soft", base)
	s.git("commit", "-q", "-m", "again")
	if got := derived("HEAD", nil); !slices.Equal(got, []string{afterHard, plain}) && !slices.Equal(got, []string{plain, afterHard}) {
		t.Fatalf("reset --soft: %v, want %s and %s", got, afterHard, plain)
	}
	b := "b.txt"
	if err := s.repo.WriteNote(ctx, side, &Note{Records: []Record{{File: &b, Lines: [][2]int{{1, 1}},
		CtxSessionID: "ses_" + strings.Repeat("a", 32), CtxEventIDs: []string{"evt_" + strings.Repeat("b", 32)},
		Provider: "codex", NativeSessionID: "n", Match: MatchExactLine}}}); err != nil {
		t.Fatal(err)
	}
	hard, _ := s.repo.Commit(ctx, afterHard)
	added, _ := s.repo.AddedLines(ctx, hard)
	if n, err := carryFrom(ctx, s.repo, hard, added, []string{side}, t.Logf); err != nil || len(n.Records) != 0 {
		t.Fatalf("a hard reset's discarded commit carried %+v %v", n, err)
	}
	// A -x trailer and a default squash message name their commits.
	s.git("commit", "-q", "--allow-empty", "-m", "picked\n\n(cherry picked from commit "+side+")")
	if got := derived("HEAD", nil); !slices.Equal(got, []string{side}) {
		t.Fatalf("trailer: %v", got)
	}
	s.git("commit", "-q", "--allow-empty", "-m", "Squashed commit of the following:\n\ncommit "+side+"\nAuthor: T\n\n    side\n")
	if got := derived("HEAD", nil); !slices.Equal(got, []string{side}) {
		t.Fatalf("squash message: %v", got)
	}
	// CHERRY_PICK_HEAD names the pick's source.
	if got := derived("HEAD~1", func(st *State) { st.CherryPickHead = side; st.Reflog = nil }); !slices.Equal(got, []string{side}) {
		t.Fatalf("CHERRY_PICK_HEAD: %v", got)
	}
}
