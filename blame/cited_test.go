package blame

import (
	"context"
	"slices"
	"testing"

	"ctx/query"
)

const native2 = "22222222-3333-4444-8555-666666666666"

// TestCitedOnlyWhereLinesCarryIt: one session writes the commit's lines,
// another only works in the repository meanwhile. The commit's evidence
// and the range's citations name the writer alone; the other is listed,
// as active and never cited, only when asked for.
func TestCitedOnlyWhereLinesCarryIt(t *testing.T) {
	s := newSandbox(t)
	ctx := context.Background()
	s.write("README.md", "# demo\n")
	base := s.commit("init")
	s.git("commit", "-q", "--amend", "--no-edit", "--date=2000-01-01T00:00:00Z")
	base = s.git("rev-parse", "HEAD")
	writer := s.claudeSession(native1, toolUse{ID: "toolu_11write", Name: "Write",
		Input: map[string]any{"file_path": s.dir + "/app.go", "content": agentContent}})
	bystander := s.claudeSession(native2, toolUse{ID: "toolu_12read", Name: "Read",
		Input: map[string]any{"file_path": s.dir + "/README.md"}})
	s.write("app.go", agentContent)
	head := s.commit("add app")
	n := s.link()
	if n == nil || len(n.Records) != 2 {
		t.Fatalf("want a line record and an active record, got %+v", n)
	}
	rd, err := query.Open(s.store)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()

	cv, err := BlameCommit(ctx, s.repo, head, NewResolver(rd))
	if err != nil {
		t.Fatal(err)
	}
	if len(cv.Sessions) != 0 {
		t.Fatalf("sessions_active by default: %+v", cv.Sessions)
	}
	if len(cv.Files) != 1 || cv.Files[0].Records[0].Evidence[0].CtxSessionID != writer.String() {
		t.Fatalf("files %+v", cv.Files)
	}
	if ev := cv.Files[0].Records[0].Evidence[0]; ev.SessionTitle == "" {
		t.Fatalf("evidence without the session's title: %+v", ev)
	}
	with, err := BlameCommitWith(ctx, s.repo, head, NewResolver(rd), CommitOptions{Active: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(with.Sessions) != 1 || with.Sessions[0].CtxSessionID != bystander.String() {
		t.Fatalf("sessions_active when asked: %+v", with.Sessions)
	}

	pr, err := BlamePR(ctx, s.repo, base+"..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.BySession) != 1 || pr.BySession[0].CtxSessionID != writer.String() {
		t.Fatalf("by_session %+v", pr.BySession)
	}
	if !slices.Equal(pr.Cited, []string{writer.String()}) {
		t.Fatalf("sessions_cited %v, want only the writer %s", pr.Cited, writer)
	}
}
