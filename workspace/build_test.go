package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// repo makes a repository with a plan, an entry point, a clone to be ahead
// of, a staged, a modified and an untracked file.
func repo(t *testing.T) string {
	t.Helper()
	up := t.TempDir()
	run(t, up, "git", "init", "-q", "-b", "main")
	write(t, up, "README.md", "# demo\n")
	write(t, up, "PLAN.md", "# The Plan\n\n1. ship\n")
	write(t, up, "go.mod", "module demo\n")
	write(t, up, "internal/core.go", "package core\n")
	write(t, up, "internal/b.go", "package core\n// b\n")
	run(t, up, "git", "add", ".")
	run(t, up, "git", "commit", "-q", "-m", "first")
	root := filepath.Join(t.TempDir(), "clone")
	run(t, up, "git", "clone", "-q", up, root)
	write(t, root, "internal/core.go", "package core\n\nfunc Staged() {}\n")
	run(t, root, "git", "add", "internal/core.go")
	run(t, root, "git", "commit", "-q", "-m", "second: ahead")
	write(t, root, "README.md", "# demo\nchanged\n")
	write(t, root, "internal/b.go", "package core\n// staged\n")
	run(t, root, "git", "add", "internal/b.go")
	write(t, root, "notes.txt", "untracked\n")
	return root
}

func TestBuildRepository(t *testing.T) {
	root := repo(t)
	at := time.Date(2026, 7, 1, 10, 0, 0, 0, time.UTC)
	sessions := func(context.Context, string) ([]SessionBrief, []Activity, error) {
		return []SessionBrief{{SessionID: "ses_x", Title: "fix core"}}, []Activity{
			{Path: filepath.Join(root, "internal/core.go"), Edit: true, At: at},
			{Path: "internal/b.go", At: at.Add(time.Hour)},
			{Path: "/elsewhere/x.go", Edit: true, At: at.Add(2 * time.Hour)},
		}, nil
	}
	o, err := Build(context.Background(), Options{Root: root, Version: "t", Sessions: sessions})
	if err != nil {
		t.Fatal(err)
	}
	if o.Plan == nil || !strings.Contains(*o.Plan, "# The Plan") || len(o.PlanFiles) != 1 {
		t.Fatalf("plan = %v %+v", o.Plan, o.PlanFiles)
	}
	var paths []string
	for _, f := range o.KeyFiles {
		paths = append(paths, f.Path+":"+f.Reason)
	}
	want := []string{"internal/b.go:read", "internal/core.go:edited", "README.md:entry_point", "go.mod:entry_point"}
	if !slices.Equal(paths, want) {
		t.Fatalf("key files = %v, want %v", paths, want)
	}
	g := o.GitState
	if g == nil || g.Branch != "main" || g.Ahead != 1 || g.Behind != 0 || g.Detached {
		t.Fatalf("git = %+v", g)
	}
	if !slices.Equal(g.Staged, []string{"internal/b.go"}) || !slices.Equal(g.Modified, []string{"README.md"}) ||
		!slices.Equal(g.Untracked, []string{"notes.txt"}) {
		t.Fatalf("status = %v %v %v", g.Staged, g.Modified, g.Untracked)
	}
	if len(g.Commits) != 2 || g.Commits[0].Subject != "second: ahead" || !strings.Contains(g.DiffSummary, "README.md") {
		t.Fatalf("commits = %+v diff = %q", g.Commits, g.DiffSummary)
	}
	if len(o.Sessions) != 1 || o.Meta.TokensUsed <= 0 || o.Meta.TokensUsed > o.Meta.TokenBudget {
		t.Fatalf("sessions %v, used %d", o.Sessions, o.Meta.TokensUsed)
	}
	if git := o.Scoped(ScopeGit); git.Plan != nil || len(git.KeyFiles) != 0 || git.GitState == nil ||
		git.Meta.TokensUsed >= o.Meta.TokensUsed {
		t.Fatalf("git scope = %+v", git.Meta)
	}
}

func TestBuildDetachedAndNoGit(t *testing.T) {
	root := repo(t)
	run(t, root, "git", "stash", "-q", "-u")
	run(t, root, "git", "checkout", "-q", "--detach", "HEAD~1")
	o, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if g := o.GitState; g == nil || !g.Detached || g.Branch != "" || len(g.Head) != 12 || g.DiffSummary != "clean" {
		t.Fatalf("detached = %+v", o.GitState)
	}
	plain := t.TempDir()
	write(t, plain, "TODO.md", "- [ ] one\n")
	o, err = Build(context.Background(), Options{Root: plain})
	if err != nil {
		t.Fatal(err)
	}
	if o.GitState != nil || connector(o, "git").Status != StatusUnavailable || connector(o, "notion").Status != StatusNotConfigured {
		t.Fatalf("no git: %+v %+v", o.GitState, o.Meta.Connectors)
	}
	if _, err := Build(context.Background(), Options{Root: filepath.Join(plain, "missing")}); err == nil {
		t.Fatal("a missing root built")
	}
}

func connector(o *Object, name string) Connector {
	for _, c := range o.Meta.Connectors {
		if c.Name == name {
			return c
		}
	}
	return Connector{}
}

func TestHugePlanIsCut(t *testing.T) {
	root := t.TempDir()
	line := strings.Repeat("step forward and measure again ", 3) + "\n"
	write(t, root, "PLAN.md", strings.Repeat(line, 50<<20/len(line)))
	write(t, root, "docs/plan-b.md", "second plan\n")
	o, err := Build(context.Background(), Options{Root: root, TokenBudget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.PlanFiles) != 1 || !o.PlanFiles[0].Truncated || o.PlanFiles[0].Tokens > 500 || o.PlanFiles[0].Bytes < 50<<20-100 {
		t.Fatalf("plan files = %+v", o.PlanFiles)
	}
	if o.Meta.TokensUsed > 2000 {
		t.Fatalf("used %d of 2000", o.Meta.TokensUsed)
	}
}

func TestCacheServesYoungSnapshot(t *testing.T) {
	root := t.TempDir()
	write(t, root, "README.md", "one\n")
	c := NewCache(time.Hour)
	a, err := c.Get(context.Background(), Options{Root: root})
	if err != nil || a.Meta.Cached {
		t.Fatal(err, a.Meta.Cached)
	}
	write(t, root, "README.md", "two\n")
	b, _ := c.Get(context.Background(), Options{Root: root})
	if !b.Meta.Cached || b.KeyFiles[0].Content != "one\n" {
		t.Fatalf("cached = %v %q", b.Meta.Cached, b.KeyFiles[0].Content)
	}
	c.MaxAge = -1
	d, _ := c.Get(context.Background(), Options{Root: root})
	if d.Meta.Cached || d.KeyFiles[0].Content != "two\n" {
		t.Fatalf("rebuilt = %v %q", d.Meta.Cached, d.KeyFiles[0].Content)
	}
}

// The diff summary covers exactly the changed paths: a staged rename (both
// of its paths), a file whose name is pathspec magic, a deletion, and a
// merge conflict; files that did not change stay out.
func TestDiffSummaryOfChangedPaths(t *testing.T) {
	root := t.TempDir()
	run(t, root, "git", "init", "-q", "-b", "main")
	write(t, root, "old.go", "package a\n\nfunc Old() {}\n")
	write(t, root, "*.go", "package a\n")
	write(t, root, "gone.go", "package a\n")
	write(t, root, "conflict.txt", "base\n")
	write(t, root, "same.go", "package a\n")
	run(t, root, "git", "add", ".")
	run(t, root, "git", "commit", "-q", "-m", "base")
	run(t, root, "git", "checkout", "-q", "-b", "other")
	write(t, root, "conflict.txt", "theirs\n")
	run(t, root, "git", "commit", "-q", "-am", "theirs")
	run(t, root, "git", "checkout", "-q", "main")
	write(t, root, "conflict.txt", "ours\n")
	run(t, root, "git", "commit", "-q", "-am", "ours")
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	_ = cmd.Run() // conflicts by design
	run(t, root, "git", "mv", "old.go", "new.go")
	write(t, root, "*.go", "package a\n// changed\n")
	run(t, root, "git", "rm", "-q", "gone.go")
	g, err := ReadGit(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"new.go", "*.go", "gone.go", "conflict.txt"} {
		if !strings.Contains(g.DiffSummary, want) {
			t.Errorf("diff summary lacks %s:\n%s", want, g.DiffSummary)
		}
	}
	if strings.Contains(g.DiffSummary, "same.go") || !slices.Contains(g.Modified, "conflict.txt") {
		t.Errorf("diff %q, modified %v", g.DiffSummary, g.Modified)
	}
	if len(g.Commits) != 2 || g.Commits[0].Subject != "ours" {
		t.Errorf("commits %+v", g.Commits)
	}
}
