package blame

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ctx/core"
	"ctx/query"
)

const native1 = "11111111-2222-4333-8444-555555555555"

// agentFile is what the agent writes: four lines, then a human adds one.
const agentContent = "package app\n\nfunc Answer() int {\n\treturn 42\n}\n"

// TestAttributionScenario: a Claude Code session writes a file, a human adds
// a line, the commit is linked; the note names the session and event for
// exactly the agent's lines; amend carries the evidence; blame shows it.
func TestAttributionScenario(t *testing.T) {
	s := newSandbox(t)
	ctx := context.Background()
	s.write("README.md", "# demo\n")
	s.commit("init")
	s.git("commit", "-q", "--amend", "--no-edit", "--date=2000-01-01T00:00:00Z") // parent well before the session
	sid := s.claudeSession(native1, toolUse{ID: "toolu_01write", Name: "Write",
		Input: map[string]any{"file_path": s.dir + "/app.go", "content": agentContent}})
	evt := core.NewEventID(sid, "toolu_01write").String()
	s.write("app.go", agentContent+"// a human wrote this line\n")
	s.commit("add app")
	n := s.link()
	if n == nil || len(n.Records) != 1 {
		t.Fatalf("want one record, got %+v", n)
	}
	r := n.Records[0]
	if *r.File != "app.go" || r.CtxSessionID != sid.String() || !slices.Equal(r.CtxEventIDs, []string{evt}) ||
		r.Provider != core.ProviderClaude || r.NativeSessionID != native1 || r.Match != MatchExactLine {
		t.Fatalf("record %+v", r)
	}
	if want := [][2]int{{1, 5}}; !slices.Equal(r.Lines, want) {
		t.Fatalf("lines %v, want %v (line 6 is the human's)", r.Lines, want)
	}

	// Amend: a human line on top shifts the agent's lines by one.
	old := s.git("rev-parse", "HEAD")
	s.write("app.go", "// header by a human\n"+agentContent+"// a human wrote this line\n")
	s.git("commit", "-q", "-a", "--amend", "--no-edit")
	nw := s.git("rev-parse", "HEAD")
	if err := Rewrite(ctx, s.repo, []Pair{{old, nw}}, func(f string, a ...any) { t.Logf(f, a...) }); err != nil {
		t.Fatal(err)
	}
	carried, err := s.repo.ReadNote(ctx, nw)
	if err != nil || carried == nil {
		t.Fatalf("carried note: %v %v", carried, err)
	}
	if got := carried.Records[0].Lines; !slices.Equal(got, [][2]int{{2, 6}}) {
		t.Fatalf("carried lines %v, want [[2 6]]", got)
	}

	rd, err := query.Open(s.store)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	v, err := BlameFile(ctx, s.repo, FileRequest{Path: "app.go", Dir: s.dir, Start: 1, End: 7}, NewResolver(rd))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range v.Lines {
		agent := l.Line >= 2 && l.Line <= 6
		if got := len(l.Evidence) > 0; got != agent {
			t.Errorf("line %d %q: evidence %v, want agent=%v", l.Line, l.Text, l.Evidence, agent)
		}
		if agent && (l.Evidence[0].CtxEventID != evt || !l.Evidence[0].InStore || l.Evidence[0].Timestamp == nil ||
			!strings.Contains(l.Evidence[0].Excerpt, "Write")) {
			t.Errorf("line %d evidence %+v", l.Line, l.Evidence[0])
		}
	}
}

// TestEditMatchesOnlyNewLines: an Edit's context lines (in old and new text)
// are not credited to it; a trivial line needs a written neighbour.
func TestEditMatchesOnlyNewLines(t *testing.T) {
	s := newSandbox(t)
	s.write("app.go", agentContent)
	s.commit("init")
	s.git("commit", "-q", "--amend", "--no-edit", "--date=2000-01-01T00:00:00Z")
	sid := s.claudeSession(native1, toolUse{ID: "toolu_02edit", Name: "Edit", Input: map[string]any{
		"file_path": "app.go", "old_string": "func Answer() int {\n\treturn 42\n}",
		"new_string": "func Answer() int {\n\treturn 42\n}\n\nfunc Double(x int) int {\n\treturn 2 * x\n}"}})
	s.write("app.go", agentContent+"\nfunc Double(x int) int {\n\treturn 2 * x\n}\n\n}\n")
	s.commit("double")
	n := s.link()
	if n == nil || len(n.Records) != 1 || n.Records[0].CtxSessionID != sid.String() {
		t.Fatalf("note %+v", n)
	}
	// Lines 6-9 are the agent's (blank, func, return, brace); the lone
	// brace of line 11 after a blank human line has no written neighbour.
	if got := n.Records[0].Lines; !slices.Equal(got, [][2]int{{6, 9}}) {
		t.Fatalf("lines %v, want [[6 9]]", got)
	}
}

// TestSessionActiveNoMatch: a session that worked in the repository during
// the window but wrote none of the lines is recorded at commit level.
func TestSessionActiveNoMatch(t *testing.T) {
	s := newSandbox(t)
	s.write("README.md", "# demo\n")
	s.commit("init")
	s.git("commit", "-q", "--amend", "--no-edit", "--date=2000-01-01T00:00:00Z")
	sid := s.claudeSession(native1, toolUse{ID: "toolu_03read", Name: "Read", Input: map[string]any{"file_path": s.dir + "/README.md"}})
	s.write("notes.txt", "all mine\n")
	s.commit("human")
	n := s.link()
	if n == nil || len(n.Records) != 1 || n.Records[0].File != nil || n.Records[0].Match != MatchSessionActive ||
		n.Records[0].CtxSessionID != sid.String() {
		t.Fatalf("note %+v", n)
	}
}

func TestWrittenLinesCountsEachLineOnce(t *testing.T) {
	create := core.FileTouch{Path: "a.go", Op: core.OpCreate, NewText: "x := 1\ny := 2\n", Patch: "+x := 1\n+y := 2"}
	if got := writtenLines(&create); len(got) != 2 {
		t.Fatalf("a create with its patch counted %d lines, want 2: %q", len(got), got)
	}
	patch := core.FileTouch{Path: "a.go", Op: core.OpMove, MovedTo: "b.go", Patch: "@@\n-x\n+y\n context"}
	if got := writtenLines(&patch); len(got) != 1 || got[0] != "y" {
		t.Fatalf("patch lines %q", got)
	}
	createFromPatch := core.FileTouch{Path: "c.go", Op: core.OpCreate, Patch: "+only"}
	if got := writtenLines(&createFromPatch); len(got) != 1 {
		t.Fatalf("a create without content did not use its patch: %q", got)
	}
}
