package blame

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNewerNoteReadInPart: a note of a newer format is read as far as this
// version understands it (records of the known shape and kinds, unknown
// fields ignored), blame says so, and linking leaves the note as it is.
func TestNewerNoteReadInPart(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.write("a.txt", "one\ntwo\nthree\nfour\n")
	c := s.commit("a")
	sid, ev := "ses_"+strings.Repeat("a", 32), "evt_"+strings.Repeat("b", 32)
	note := strings.Join([]string{
		`{"ctx_notes":2,"signed_by":"somebody"}`,
		`{"file":"a.txt","lines":[[1,1]],"ctx_session_id":"` + sid + `","ctx_event_ids":["` + ev + `"],"provider":"claude-code","native_session_id":"n","match":"exact_line","confidence":0.99}`,
		`{"file":"a.txt","lines":[[2,2]],"ctx_session_id":"` + sid + `","ctx_event_ids":["` + ev + `"],"provider":"claude-code","native_session_id":"n","match":"semantic"}`,
		`{"file":"a.txt","lines":[[3,3]],"ctx_session_id":"` + sid + `","ctx_event_ids":["` + ev + `"],"provider":"claude-code","native_session_id":"n","match":"whitespace"}`,
		`a line that is not JSON`,
		`{"file":"a.txt","lines":[[0,-4]],"ctx_session_id":"` + sid + `","match":"exact_line"}`,
	}, "\n") + "\n"
	if _, err := s.repo.GitIn(ctx, []byte(note), "notes", "--ref", NotesRef, "add", "-f", "-F", "-", c); err != nil {
		t.Fatal(err)
	}
	rs := NewResolver(nil)
	v, err := BlameFile(ctx, s.repo, FileRequest{Path: "a.txt", Dir: s.dir}, rs)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, l := range v.Lines {
		k := "-"
		if len(l.Evidence) > 0 {
			k = l.Evidence[0].Match
		}
		kinds = append(kinds, k)
	}
	if got := strings.Join(kinds, " "); got != "exact_line - whitespace -" {
		t.Errorf("evidence kinds by line: %s", got)
	}
	if len(v.Problems) != 1 || !strings.Contains(v.Problems[0], "read in part") ||
		!strings.Contains(v.Problems[0], "format 2") || !strings.Contains(v.Problems[0], "2 records read, 3 lines left out") {
		t.Errorf("problems: %q", v.Problems)
	}
	cv, err := BlameCommit(ctx, s.repo, c, rs)
	if err != nil || len(cv.Files) != 1 || len(cv.Files[0].Records) != 2 || len(cv.Problems) != 1 {
		t.Fatalf("commit view: %+v %v", cv, err)
	}
	// Linking the commit again (as a hook would) leaves the note alone.
	var logged []string
	n := &Note{Records: []Record{{File: ptr("a.txt"), Lines: [][2]int{{4, 4}}, CtxSessionID: sid, Match: MatchExactLine}}}
	if _, err := writeMerged(ctx, s.repo, c, n, func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }); err != nil {
		t.Fatal(err)
	}
	if got := s.git("notes", "--ref", NotesRef, "show", c); got+"\n" != note || len(logged) != 1 {
		t.Fatalf("the newer note was rewritten (%q): %q", logged, got)
	}
}

func ptr(s string) *string { return &s }

// TestAttributionDriftBadInput runs the bad input through the
// hooks and the built binary: a formatter that changes every line of a
// file, a move of a 10,000-line file, 1,000 identical closing braces from
// two sessions, a commit that deletes everything, binary files in the
// commit. None may attribute a human line, fail a hook or fail blame.
func TestAttributionDriftBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(w *world)
	}{
		{"a formatter changes every line", func(w *world) {
			indent := func(ls []string) []string {
				for i, l := range ls {
					ls[i] = "    " + strings.TrimLeft(l, "\t") // spaces where gofmt wants tabs, on every line
				}
				return ls
			}
			header := w.unit("human", 1, func(name string, _ int) []string { return []string{"package drift // " + name} })
			w.human("h.go", nil, indent(append(header, w.messyHuman(20)...)))
			w.commit("h, by hand")
			w.tick(day)
			w.claudeWrite(claudeA, "a.go", indent(append(w.goHeader("claudeA"), w.goFuncs("claudeA", 10, true)...)))
			w.format("gofmt", "a.go", "h.go")
			if n := strings.Fields(w.git("diff", "--numstat", "--", "h.go")); len(n) != 3 || n[1] != "21" {
				w.t.Fatalf("gofmt did not change every line of h.go: %v", n)
			}
			w.commit("formatted")
		}},
		{"a formatter re-wraps a 3,200-line agent file in a commit of its own", func(w *world) {
			w.claudeWrite(claudeA, "big.js", w.jsFuncs("claudeA", 400))
			w.human("big.js", nil, w.messyHuman(3))
			w.commit("big.js")
			w.tick(day)
			w.format("prettier", "big.js")
			t0 := time.Now()
			w.commit("prettier")
			w.t.Logf("the re-formatting commit took %s with its hook", time.Since(t0).Round(time.Millisecond))
		}},
		{"a move of a 10,000-line file", func(w *world) {
			w.claudeWrite(claudeA, "big.go", append(w.goHeader("claudeA"), w.goTidy("claudeA", 2500)...))
			w.commit("big")
			w.tick(day)
			w.git("mv", "big.go", "moved.go")
			file := w.read("moved.go")
			w.put("other.go", append([]string{"package drift"}, file[1:4001]...)) // and 4,000 lines to another file
			w.put("moved.go", append(file[:1:1], file[4001:]...))
			w.commit("move big.go and split it")
			// The moved text is the agent's: git blame -C names its commit.
			w.pinFile("other.go", w.writers[file[1]])
			w.at["other.go"][1] = writer{}
		}},
		{"1,000 identical braces from two sessions", func(w *world) {
			fn := func(name string, k int) []string {
				return []string{"func " + name + "() int {", fmt.Sprintf("\treturn %d // %s", k, name), "}"}
			}
			w.human("b.go", nil, []string{"package drift", w.humanLines(1)[0]})
			w.commit("b")
			w.tick(day)
			b := w.read("b.go")
			w.claudeEdit(claudeA, "b.go", b[0], w.unit("claudeA", 500, fn))
			w.codexInsert(codexA, "b.go", b[1], w.unit("codexA", 500, fn))
			w.human("b.go", nil, append([]string{"func human() {"}, "}")) // a human's brace too
			w.writers["func human() {"] = writer{}
			w.commit("1,000 functions")
		}},
		{"a commit that deletes everything", func(w *world) {
			w.claudeWrite(claudeA, "a.go", append(w.goHeader("claudeA"), w.goTidy("claudeA", 3)...))
			w.commit("a")
			w.tick(time.Hour)
			w.git("rm", "-q", "-r", ".")
			w.commit("delete everything")
			if out, err := w.run(w.bin, "blame", "a.go"); err == nil || !strings.Contains(out, "not tracked") {
				w.t.Errorf("blame of a deleted file: %v %s", err, out)
			}
			if out := w.ctx("blame", "--commit", "HEAD"); strings.Contains(out, "lines ") || !strings.Contains(out, "no agent evidence") {
				w.t.Errorf("blame --commit of the deletion: %s", out)
			}
			if out := w.ctx("blame", "--commit", "HEAD", "--active"); strings.Contains(out, "    lines ") ||
				!strings.Contains(out, "active at commit time, wrote none of its lines (not cited)") {
				w.t.Errorf("blame --commit --active of the deletion: %q", out)
			}
			// Something to score afterwards.
			w.claudeWrite(claudeA, "again.go", append(w.goHeader("claudeA"), w.goTidy("claudeA", 1)...))
			w.human("again.go", nil, w.humanLines(1))
			w.commit("start again")
		}},
		{"binary files in the commit", func(w *world) {
			png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01")
			w.write("logo.png", string(png))
			w.claudeWrite(claudeA, "a.go", append(w.goHeader("claudeA"), w.goTidy("claudeA", 2)...))
			// An agent writes a file with a NUL byte in it; git calls it binary.
			w.claudeTool(claudeA, "Write", map[string]any{"file_path": filepath.Join(w.dir, "blob.bin"),
				"content": "claudeA bytes\x00claudeA more\n"})
			w.write("blob.bin", "claudeA bytes\x00claudeA more\n")
			w.human("a.go", nil, w.humanLines(1))
			w.commit("with binaries")
			if out, err := w.run(w.bin, "blame", "logo.png"); err == nil || !strings.Contains(out, "binary") {
				w.t.Errorf("blame of a binary file: %v %s", err, out)
			}
			var cv CommitView
			if err := json.Unmarshal([]byte(w.ctx("blame", "--commit", "HEAD", "--format", "json")), &cv); err != nil {
				w.t.Fatal(err)
			}
			for _, f := range cv.Files {
				if f.File != "a.go" {
					w.t.Errorf("evidence for %s", f.File)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			tc.run(w)
			s := w.check()
			t.Logf("%s: %d agent lines, %d human lines, precision %.4f, recall %.4f, human lines with evidence %d, kinds %v",
				tc.name, s.agentLines, s.humanLines, s.precision(), s.recall(), s.humanWithEvidence, s.kinds)
			if s.precision() < 0.995 || s.recall() < 0.98 || s.humanWithEvidence > 0 {
				t.Errorf("below the bar: precision %.4f, recall %.4f, human lines with evidence %d",
					s.precision(), s.recall(), s.humanWithEvidence)
			}
		})
	}
}
