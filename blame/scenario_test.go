package blame

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Session ids of the scripted agents.
const (
	claudeA = "aaaaaaaa-1111-4111-8111-111111111111"
	claudeB = "bbbbbbbb-2222-4222-8222-222222222222"
	claudeC = "cccccccc-3333-4333-8333-333333333333"
	codexA  = "019b21ab-55b8-7932-8d73-e85426fd3ca1"
	codexB  = "019b21ab-55b8-7932-8d73-e85426fd3cb2"
)

const day = 24 * time.Hour

// later moves a day on and gives main a human commit, so the commits a
// rewrite makes have parents far newer than the agents' events: only the
// carried notes can attribute their lines, never a fresh match.
func (w *world) later(branch string) {
	w.t.Helper()
	w.tick(day)
	w.git("checkout", "-q", branch)
	w.human("README.md", nil, w.humanLines(1))
	w.commit("main moves on")
}

// feature builds three commits on a new branch feature: a Claude Write, a
// Codex Add File with a human line, a Claude Edit of the first file with a
// human line. It returns the first file's lines.
func (w *world) feature(name string) []string {
	w.t.Helper()
	w.git("checkout", "-q", "-b", name, "main")
	a := w.lines("claudeA", 4)
	w.claudeWrite(claudeA, name+"_a.go", a)
	w.commit(name + ": a")
	w.codexAdd(codexA, name+"_b.go", w.lines("codexA", 3))
	w.human(name+"_b.go", nil, w.humanLines(1))
	w.commit(name + ": b")
	w.claudeEdit(claudeA, name+"_a.go", a[1], w.lines("claudeA", 2))
	w.human(name+"_a.go", nil, w.humanLines(1))
	w.commit(name + ": more a")
	return a
}

// forgeSquash pushes main and branch to a bare repository standing for a
// forge, squash-merges branch into main there in a clone of its own (no
// ctx hook runs) and pushes it, as a forge's "squash and merge" does. It
// returns the forge's path.
func (w *world) forgeSquash(branch string) string {
	w.t.Helper()
	forge := filepath.Join(w.t.TempDir(), "forge.git")
	w.git("init", "-q", "--bare", forge)
	w.git("push", "-q", forge, "main", branch)
	site := filepath.Join(w.t.TempDir(), "site")
	w.git("clone", "-q", "--branch", "main", forge, site)
	w.git("-C", site, "config", "user.name", "Forge")
	w.git("-C", site, "config", "user.email", "forge@example.com")
	w.git("-C", site, "merge", "-q", "--squash", "origin/"+branch)
	w.tick(time.Minute)
	w.git("-C", site, "commit", "-q", "-m", "Feature (#12)")
	w.git("-C", site, "push", "-q", "origin", "main")
	return forge
}

// resolveWith has a Claude Code session resolve the conflict in path: it
// keeps both sides and adds two lines of its own (an Edit of the block).
func (w *world) resolveWith(native, path string) {
	w.t.Helper()
	file := w.read(path)
	start, end := -1, -1
	for i, l := range file {
		if strings.HasPrefix(l, "<<<<<<< ") && start < 0 {
			start = i
		}
		if strings.HasPrefix(l, ">>>>>>> ") {
			end = i
		}
	}
	if start < 0 || end < start {
		w.t.Fatalf("%s: no conflict", path)
	}
	var kept []string
	for _, l := range file[start+1 : end] {
		if l != "=======" && !strings.HasPrefix(l, "|||||||") {
			kept = append(kept, l)
		}
	}
	w.claudeReplace(native, path, file[start:end+1], append(kept, w.lines("claudeC", 2)...))
}

var scenarios = []struct {
	name string
	run  func(w *world)
}{
	{"plain commit", func(w *world) {
		w.claudeWrite(claudeA, "app.go", w.lines("claudeA", 4))
		w.human("app.go", nil, w.humanLines(1))
		w.codexAdd(codexA, "util.go", w.lines("codexA", 3))
		first := w.read("util.go")[0]
		w.human("util.go", &first, w.humanLines(1))
		w.commit("app and util")
	}},
	{"amend", func(w *world) {
		a := w.lines("claudeA", 4)
		w.claudeWrite(claudeA, "app.go", a)
		w.commit("app")
		top := ""
		w.human("app.go", &top, w.humanLines(1))
		w.humanReplace("app.go", a[1])
		w.codexInsert(codexA, "app.go", a[3], w.lines("codexA", 2))
		w.tick(time.Minute)
		w.git("commit", "-q", "-a", "--amend", "--no-edit")
	}},
	{"rebase -i reorder", func(w *world) {
		w.feature("feature")
		w.later("main")
		w.git("checkout", "-q", "feature")
		w.rebaseI("main", "1{h;d};2G") // F2, F1, F3
		if got := w.git("log", "--format=%s", "-3"); got != "feature: more a\nfeature: a\nfeature: b" {
			w.t.Fatalf("reorder gave %q", got)
		}
	}},
	{"rebase -i squash and fixup", func(w *world) {
		a := w.feature("feature")
		w.claudeReplace(claudeB, "feature_a.go", a[3:4], w.lines("claudeB", 2)) // an agent rewrites an agent line
		w.commit("feature: rewrite")
		w.later("main")
		w.git("checkout", "-q", "feature")
		w.rebaseI("main", "2,3s/^pick/squash/;4s/^pick/fixup/")
		if n := w.git("rev-list", "--count", "main..HEAD"); n != "1" {
			w.t.Fatalf("squash left %s commits", n)
		}
	}},
	{"rebase -i drop", func(w *world) {
		w.feature("feature")
		w.later("main")
		w.git("checkout", "-q", "feature")
		w.rebaseI("main", "2s/^pick/drop/")
	}},
	{"cherry-pick", func(w *world) {
		w.human("conf.go", nil, w.humanLines(3))
		w.commit("conf")
		base := w.read("conf.go")
		w.git("checkout", "-q", "-b", "feature")
		w.claudeWrite(claudeA, "p1.go", w.lines("claudeA", 3))
		w.commit("pick me plain")
		w.codexAdd(codexA, "p2.go", w.lines("codexA", 3))
		w.human("p2.go", nil, w.humanLines(1))
		w.commit("pick me with -x")
		w.claudeReplace(claudeB, "conf.go", base[1:2], w.lines("claudeB", 2))
		w.claudeWrite(claudeB, "p3.go", w.lines("claudeB", 2))
		w.commit("pick me through a conflict")
		w.codexAdd(codexB, "p4.go", w.lines("codexB", 2))
		w.commit("pick me in a range")
		p4 := w.read("p4.go")
		w.codexInsert(codexB, "p4.go", p4[0], w.lines("codexB", 2))
		w.commit("pick me in a range too")
		w.later("main")
		w.humanReplace("conf.go", base[1])
		w.commit("main edits conf")
		w.tick(time.Hour)
		w.git("cherry-pick", "feature~4")
		w.tick(time.Minute)
		w.git("cherry-pick", "-x", "feature~3")
		w.tick(time.Minute)
		w.git("cherry-pick", "feature~1", "feature") // a range: the sequencer picks each
		w.tick(time.Minute)
		if out, err := w.run("git", "cherry-pick", "feature~2"); err == nil {
			w.t.Fatalf("want a conflict: %s", out)
		}
		w.git("checkout", "--theirs", "conf.go")
		w.git("add", "conf.go")
		w.git("cherry-pick", "--continue")
	}},
	{"merge with a conflict resolved by an agent", func(w *world) {
		w.human("m.go", nil, w.humanLines(3))
		w.commit("m")
		base := w.read("m.go")
		w.git("checkout", "-q", "-b", "feature")
		w.claudeReplace(claudeA, "m.go", base[1:2], w.lines("claudeA", 2))
		w.commit("feature edits m")
		w.codexAdd(codexA, "f.go", w.lines("codexA", 3))
		w.commit("feature adds f")
		w.git("checkout", "-q", "main")
		w.tick(time.Hour)
		w.humanReplace("m.go", base[1])
		w.commit("main edits m")
		w.tick(time.Minute)
		if out, err := w.run("git", "merge", "-q", "feature"); err == nil {
			w.t.Fatalf("want a conflict: %s", out)
		}
		w.resolveWith(claudeC, "m.go")
		w.git("add", "m.go")
		w.tick(time.Minute)
		w.git("commit", "-q", "--no-edit")
		if n := w.note("HEAD"); n == nil || len(n.Records) != 1 || n.Records[0].LineCount() != 2 {
			w.t.Errorf("merge commit note %+v: want the two resolution lines only", n)
		}
		// The range counts each line once: the feature's five with their
		// commits, the resolution's two with the merge.
		pr := w.ctx("blame", "--pr", "HEAD~1..HEAD", "--format", "json")
		if !strings.Contains(pr, `"added_lines": 7,`) || !strings.Contains(pr, `"agent_lines": 7,`) {
			w.t.Errorf("blame --pr over the merge: %s", pr)
		}
	}},
	{"rebase with a conflict resolved by an agent", func(w *world) {
		w.human("m.go", nil, w.humanLines(3))
		w.commit("m")
		base := w.read("m.go")
		w.git("checkout", "-q", "-b", "feature")
		w.claudeWrite(claudeA, "c.go", w.lines("claudeA", 3))
		w.claudeReplace(claudeA, "m.go", base[1:2], w.lines("claudeA", 2))
		w.commit("feature edits m")
		w.later("main")
		w.humanReplace("m.go", base[1])
		w.commit("main edits m")
		w.git("checkout", "-q", "feature")
		w.tick(time.Minute)
		if out, err := w.run("git", "rebase", "-q", "main"); err == nil {
			w.t.Fatalf("want a conflict: %s", out)
		}
		w.resolveWith(claudeC, "m.go")
		w.git("add", "m.go")
		w.tick(time.Minute)
		w.git("rebase", "--continue")
		if n := w.git("rev-list", "--count", "main..HEAD"); n != "1" {
			w.t.Fatalf("rebase left %s commits", n)
		}
	}},
	{"merge --squash", func(w *world) {
		w.feature("feature")
		w.later("main")
		w.git("merge", "-q", "--squash", "feature")
		w.tick(time.Minute)
		w.git("commit", "-q", "--no-edit") // the default message lists the commits
		w.feature("second")
		w.later("main")
		w.git("merge", "-q", "--squash", "second")
		w.tick(time.Minute)
		w.git("commit", "-q", "-m", "second, squashed") // a message of one's own
	}},
	{"reset --soft squash", func(w *world) {
		w.feature("feature")
		w.later("main")
		w.git("checkout", "-q", "feature")
		w.git("rebase", "-q", "main")
		w.tick(time.Hour)
		w.git("reset", "-q", "--soft", "main")
		w.git("commit", "-q", "-m", "feature in one commit")
	}},
	{"forge squash merge", func(w *world) {
		w.feature("feature")
		w.later("main")
		// The forge squashes the pull request: no hook of this clone runs.
		w.git("-c", "core.hooksPath=/dev/null", "merge", "-q", "--squash", "feature")
		w.tick(time.Minute)
		w.git("-c", "core.hooksPath=/dev/null", "-c", "user.name=Forge", "commit", "-q", "-m", "Feature (#12)")
		if n := w.note("HEAD"); n != nil {
			w.t.Fatalf("a commit made without hooks has a note: %+v", n)
		}
		out := w.ctx("notes", "link", "HEAD", "--from", "HEAD~1..feature")
		if !strings.Contains(out, "matched against 3 noted commits") {
			w.t.Errorf("notes link: %s", out)
		}
		again := w.ctx("notes", "link", "HEAD", "--from", "HEAD~1..feature", "--format", "json")
		if !strings.Contains(again, `"lines": 9,`) { // 6 Claude and 3 Codex lines
			w.t.Errorf("notes link again: %s", again)
		}
	}},
	{"forge squash merge, pulled", func(w *world) {
		w.feature("feature")
		w.later("main")
		// The squash reaches this clone by git pull, where post-merge links it.
		forge := w.forgeSquash("feature")
		w.tick(time.Minute)
		w.git("pull", "-q", "--ff-only", forge, "main")
		if w.git("log", "-1", "--format=%s") != "Feature (#12)" {
			w.t.Fatal("the pull did not bring the forge's squash")
		}
		if w.note("HEAD") == nil {
			w.t.Fatal("post-merge did not link the pulled squash")
		}
	}},
	{"forge squash merge, pulled with rebase", func(w *world) {
		w.feature("feature")
		w.later("main")
		forge := w.forgeSquash("feature")
		// Meanwhile main here gains a commit of its own, so the pull rebases
		// it onto the squash: post-rewrite runs, post-merge does not.
		w.tick(time.Minute)
		w.human("local.go", nil, w.humanLines(2))
		w.commit("local work")
		w.tick(time.Minute)
		w.git("pull", "-q", "--rebase", forge, "main")
		if w.git("log", "-1", "--format=%s", "HEAD~1") != "Feature (#12)" {
			w.t.Fatal("the pull did not rebase onto the forge's squash")
		}
		if w.note("HEAD~1") == nil {
			w.t.Fatal("the pulled squash was not linked after the rebase")
		}
	}},
	{"rename", func(w *world) {
		w.claudeWrite(claudeA, "r.go", w.lines("claudeA", 3))
		w.commit("r")
		w.tick(time.Hour)
		w.git("mv", "r.go", "renamed.go")
		w.commit("rename r") // a later rename: blame follows it
		w.human("x.go", nil, w.humanLines(8))
		w.commit("x")
		x := w.read("x.go")
		w.git("checkout", "-q", "-b", "feature")
		w.codexInsert(codexB, "x.go", x[2], w.lines("codexB", 3))
		w.commit("feature edits x")
		w.later("main")
		w.git("mv", "x.go", "y.go")
		w.commit("main renames x")
		w.git("checkout", "-q", "feature")
		w.tick(time.Hour)
		w.git("rebase", "-q", "main") // the rebase moves the edit to y.go
		if w.note("HEAD") == nil {
			w.t.Fatal("rebased commit has no note")
		}
	}},
}

// TestAttributionScenarios runs every scenario through the installed hooks
// and the built binary, scores each line of every file at HEAD, and holds
// the suite to precision >= 99% and recall >= 95% with no evidence on any
// human line.
func TestAttributionScenarios(t *testing.T) {
	var total score
	ran := 0
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			ran++
			w := newWorld(t)
			sc.run(w)
			s := w.check()
			if w.storeEvents() == 0 {
				t.Fatal("the store is empty: the hooks imported nothing")
			}
			t.Logf("%s: %d agent lines, %d human lines, precision %.4f, recall %.4f",
				sc.name, s.agentLines, s.humanLines, s.precision(), s.recall())
			total.add(s)
		})
	}
	t.Logf("attribution suite: %d scenarios, %d agent lines, %d human lines, precision %.4f, recall %.4f, human lines with evidence %d",
		len(scenarios), total.agentLines, total.humanLines, total.precision(), total.recall(), total.humanWithEvidence)
	if total.precision() < 0.99 || total.recall() < 0.95 || total.humanWithEvidence > 0 {
		t.Fatalf("below the bar: precision %.4f (>= 0.99), recall %.4f (>= 0.95), human lines with evidence %d (0)",
			total.precision(), total.recall(), total.humanWithEvidence)
	}
	if ran == len(scenarios) && total.agentLines < 50 {
		t.Fatalf("only %d agent lines scored", total.agentLines)
	}
}
