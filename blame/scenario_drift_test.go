package blame

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The drift suite: what people do to agent code before and after
// committing it. Formatters re-space, re-quote and re-wrap it, humans move
// it to other files, split and rename files, two sessions write the same
// line, a human edits a word of an agent's hunk. Each scenario is held to
// its own bar, not only the pooled one.

// unit makes n units of lines from a template given a fresh name
// (who + serial, the token the scorer recognises) and the serial.
func (w *world) unit(who string, n int, tmpl func(name string, k int) []string) []string {
	var out []string
	for range n {
		w.serial++
		out = append(out, tmpl(fmt.Sprintf("%s%d", who, w.serial), w.serial)...)
	}
	return out
}

// goHeader is a package clause with a token of its own.
func (w *world) goHeader(who string) []string {
	return w.unit(who, 1, func(name string, _ int) []string { return []string{"package drift // " + name} })
}

// goFuncs are Go functions written carelessly: no spaces around operators
// or after commas, comments out of line. gofmt re-spaces every line; with
// wrap, each also has a one-line if that gofmt opens into three lines.
func (w *world) goFuncs(who string, n int, wrap bool) []string {
	return w.unit(who, n, func(name string, k int) []string {
		out := []string{
			fmt.Sprintf("func %s(a,b int)int{", name),
			fmt.Sprintf("\tv:=a*b+%d  // %s product", k, name),
			fmt.Sprintf("    %sw :=   v-a   // %s difference", name, name),
		}
		if wrap {
			out = append(out, fmt.Sprintf("\tif v>%sk{v=v-%sj}   // %s clamp", name, name, name))
		}
		return append(out, fmt.Sprintf("\treturn v+%sw // %s", name, name), "}")
	})
}

// goTidy are Go functions as gofmt leaves them.
func (w *world) goTidy(who string, n int) []string {
	return w.unit(who, n, func(name string, k int) []string {
		return []string{
			fmt.Sprintf("func %s(a, b int) int {", name),
			fmt.Sprintf("\tv := a*b + %d // %s product", k, name),
			fmt.Sprintf("\treturn v + %sw // %s", name, name),
			"}",
		}
	})
}

// messyHuman are a human's Go (and JavaScript) declarations, carelessly
// spaced.
func (w *world) messyHuman(n int) []string {
	return w.unit("human", n, func(name string, _ int) []string {
		return []string{fmt.Sprintf("var  %s =   %q", name, name+" line")}
	})
}

// jsFuncs are JavaScript functions with single quotes, no semicolons and
// calls too long for a line: prettier re-quotes, adds semicolons and
// wraps the call one argument per line with a trailing comma.
func (w *world) jsFuncs(who string, n int) []string {
	return w.unit(who, n, func(name string, k int) []string {
		return []string{
			fmt.Sprintf("function %s(a,b){", name),
			fmt.Sprintf("  const %sv = compute('%s', %sx*b, [%sy,2,3], {alpha: a, beta: %sb}, 'a rather long string for %s')", name, name, name, name, name, name),
			fmt.Sprintf("  const %so = {", name),
			fmt.Sprintf("    %sp: 1,", name),
			fmt.Sprintf("    %sq: 2", name),
			"  }",
			fmt.Sprintf("  return %sv+%so.%sp+%d", name, name, name, k),
			"}",
		}
	})
}

// pyFuncs are Python functions black re-spaces, re-quotes and wraps.
func (w *world) pyFuncs(who string, n int) []string {
	return w.unit(who, n, func(name string, k int) []string {
		return []string{
			fmt.Sprintf("def %s(a,b):", name),
			fmt.Sprintf("    %sv = compute('%s', %sx*b, [%sy,2,3], {'alpha': a, 'beta': %sb}, 'a rather long string for %s')", name, name, name, name, name, name),
			fmt.Sprintf("    return %sv+%d", name, k),
		}
	})
}

func (w *world) pyHuman(n int) []string {
	return w.unit("human", n, func(name string, _ int) []string {
		return []string{fmt.Sprintf("%s =  '%s line'", name, name)}
	})
}

// format runs a real formatter over files of the work tree; the test
// skips when the formatter is not installed.
func (w *world) format(tool string, files ...string) {
	w.t.Helper()
	var args []string
	switch tool {
	case "gofmt":
		args = []string{"-w"}
	case "prettier":
		args = []string{"--log-level", "warn", "--write"}
	case "black":
		args = []string{"-q"}
	}
	bin, err := exec.LookPath(tool)
	if err != nil {
		w.t.Skipf("%s is not installed (.ci/run installs it)", tool)
	}
	if out, err := w.run(bin, append(args, files...)...); err != nil {
		w.t.Fatalf("%s: %v\n%s", tool, err, out)
	}
}

// humanEdit has a human change line old of path to new (a word of an
// agent's line, say): the line is the human's.
func (w *world) humanEdit(path, old, new string) {
	w.t.Helper()
	file := w.read(path)
	i := index(file, old)
	if i < 0 {
		w.t.Fatalf("%s: no line %q", path, old)
	}
	file[i] = new
	w.writers[new] = writer{}
	w.put(path, file)
}

// cut removes lines from path and returns them.
func (w *world) cut(path string, from, to int) []string {
	w.t.Helper()
	file := w.read(path)
	out := append([]string{}, file[from:to]...)
	w.put(path, append(file[:from:from], file[to:]...))
	return out
}

// findLine returns the index of the first line of path containing s.
func (w *world) findLine(path, s string) int {
	w.t.Helper()
	for i, l := range w.read(path) {
		if strings.Contains(l, s) {
			return i
		}
	}
	w.t.Fatalf("%s: no line with %q", path, s)
	return -1
}

var driftScenarios = []struct {
	name string
	run  func(w *world)
}{
	{"gofmt before the commit, human lines mixed in", func(w *world) {
		w.human("h.go", nil, append([]string{"package drift"}, w.messyHuman(3)...))
		w.commit("h")
		w.tick(day)
		a := append(w.goHeader("claudeA"), w.goFuncs("claudeA", 3, true)...)
		w.claudeWrite(claudeA, "a.go", a)
		w.human("a.go", &a[6], w.messyHuman(2)) // after the first function
		h := w.read("h.go")
		w.codexInsert(codexA, "h.go", h[1], w.goFuncs("codexA", 2, true))
		w.format("gofmt", "a.go", "h.go")
		w.commit("agent code, formatted")
	}},
	{"gofmt in a later commit", func(w *world) {
		b := append(w.goHeader("claudeA"), w.goFuncs("claudeA", 4, false)...)
		w.claudeWrite(claudeA, "b.go", b)
		w.human("b.go", nil, w.messyHuman(2))
		w.commit("b, as the agent wrote it")
		w.tick(day)
		w.format("gofmt", "b.go")
		w.commit("gofmt") // git blame -w passes the re-spaced lines to the agent's commit
	}},
	{"prettier before the commit, human lines mixed in", func(w *world) {
		app := w.jsFuncs("claudeA", 3)
		w.claudeWrite(claudeA, "app.js", app)
		w.human("app.js", &app[7], w.messyHuman(2))
		w.codexAdd(codexA, "util.js", w.jsFuncs("codexA", 2))
		w.human("util.js", nil, w.messyHuman(1))
		w.format("prettier", "app.js", "util.js")
		w.commit("js, formatted")
	}},
	{"black before the commit, human lines mixed in", func(w *world) {
		m := w.pyFuncs("claudeA", 3)
		w.claudeWrite(claudeA, "m.py", m)
		w.human("m.py", &m[2], w.pyHuman(2))
		w.codexAdd(codexA, "n.py", w.pyFuncs("codexA", 2))
		w.human("n.py", nil, w.pyHuman(1))
		w.format("black", "m.py", "n.py")
		w.commit("python, formatted")
	}},
	{"prettier in a later commit", func(w *world) {
		app := w.jsFuncs("claudeA", 3)
		w.claudeWrite(claudeA, "app.js", app)
		w.human("app.js", &app[7], w.messyHuman(2))
		w.commit("app.js, as the agent wrote it")
		w.tick(day)
		w.format("prettier", "app.js") // re-wraps the long calls: git blame names this commit for them
		w.commit("prettier")
	}},
	{"black in a later commit", func(w *world) {
		m := w.pyFuncs("claudeA", 3)
		w.claudeWrite(claudeA, "m.py", m)
		w.human("m.py", &m[2], w.pyHuman(2))
		w.commit("m.py, as the agent wrote it")
		w.tick(day)
		w.format("black", "m.py")
		w.commit("black")
	}},
	{"a function moved to another file", func(w *world) {
		w.claudeWrite(claudeA, "a.go", append(w.goHeader("claudeA"), w.goTidy("claudeA", 3)...))
		w.human("b.go", nil, append([]string{"package drift"}, w.humanLines(3)...))
		w.commit("a and b")
		w.tick(day)
		moved := w.cut("a.go", 5, 9) // the second function
		file := w.read("b.go")
		w.put("b.go", append(file[:2:2], append(moved, file[2:]...)...))
		w.human("b.go", nil, w.humanLines(1))
		w.commit("move a function to b.go")
	}},
	{"a file split in two", func(w *world) {
		w.claudeWrite(claudeA, "big.go", append(w.goHeader("claudeA"), w.goTidy("claudeA", 6)...))
		w.commit("big")
		w.tick(day)
		tail := w.cut("big.go", 13, 25)
		w.human("part.go", nil, w.unit("human", 1, func(name string, _ int) []string {
			return []string{"package drift // " + name}
		}))
		w.put("part.go", append(w.read("part.go"), tail...))
		w.human("part.go", nil, w.humanLines(2))
		w.human("big.go", nil, w.humanLines(1))
		w.commit("split big.go")
	}},
	{"a file renamed and edited", func(w *world) {
		r := append(w.goHeader("claudeA"), w.goTidy("claudeA", 4)...)
		w.claudeWrite(claudeA, "r.go", r)
		w.commit("r")
		w.tick(day)
		w.git("mv", "r.go", "s.go")
		w.humanEdit("s.go", r[2], strings.Replace(r[2], "a*b", "a*a", 1)) // a word of an agent's line
		w.human("s.go", &r[4], w.humanLines(2))
		w.commit("rename r.go to s.go and edit it")
	}},
	{"two sessions write identical lines", func(w *world) {
		w.human("calc.go", nil, append([]string{"package drift"}, w.humanLines(2)...))
		w.commit("calc")
		w.tick(day)
		body := func(name string, _ int) []string {
			return []string{"func " + name + "() int {", "\ttotal := " + name + "x", "\treturn total", "}"}
		}
		calc := w.read("calc.go")
		codex := w.codexInsert(codexA, "calc.go", calc[2], w.unit("codexA", 1, body)) // lower in the file, first
		claude := w.claudeEdit(claudeA, "calc.go", calc[1], w.unit("claudeA", 1, body))
		w.pin("calc.go", "\treturn total", claude, codex)
		w.pin("calc.go", "}", claude, codex)
		w.commit("two sessions, one text")
	}},
	{"a human edits a word of an agent's hunk", func(w *world) {
		f := append(w.goHeader("claudeA"), w.goTidy("claudeA", 4)...)
		ev := w.claudeWrite(claudeA, "f.go", f)
		w.humanEdit("f.go", f[2], strings.Replace(f[2], "a*b", "a*a", 1))
		w.humanEdit("f.go", f[11], strings.Replace(f[11], "return v +", "return v -", 1))
		w.pin("f.go", "}", ev, ev, ev, ev) // the brace after the human's line is still the agent's
		w.commit("f, touched up")
	}},
	{"an agent rewrites lines a human wrote", func(w *world) {
		h := append([]string{"package drift"}, w.humanLines(6)...)
		w.human("h.go", nil, h)
		w.commit("h")
		w.tick(day)
		w.claudeReplace(claudeA, "h.go", h[2:5], w.goTidy("claudeA", 2))
		w.commit("agent rewrites h.go")
	}},
	{"identical text in a human file of the same name elsewhere", func(w *world) {
		same := w.goTidy("claudeA", 3)
		w.put("lib/util.go", append([]string{"package drift"}, same...))
		w.commit("lib/util.go, by hand")
		w.tick(day)
		w.claudeWrite(claudeA, "svc/util.go", append(w.goHeader("claudeA"), same...))
		more := w.goTidy("claudeA", 2)
		w.claudeEdit(claudeA, "svc/util.go", same[len(same)-1], more)
		w.put("pkg/util.go", append([]string{"package drift"}, more...)) // the same text, by hand, same commit
		w.commit("svc/util.go by an agent, pkg/util.go by hand")
		w.pinFile("lib/util.go", writer{})
		w.pinFile("pkg/util.go", writer{})
	}},
	{"a session too old for the text a human types", func(w *world) {
		old := append(w.goHeader("claudeA"), w.goTidy("claudeA", 2)...)
		w.claudeWrite(claudeA, "old.go", old)
		w.commit("old")
		w.tick(time.Hour)
		gone := w.cut("old.go", 5, 9)
		w.commit("drop a function")
		w.tick(3 * day)
		w.put("old.go", append(w.read("old.go"), gone...)) // a human types the same text again
		w.commit("bring it back by hand")
		w.at["old.go"] = map[int]writer{}
		for n := len(w.read("old.go")); n > len(w.read("old.go"))-len(gone); n-- {
			w.at["old.go"][n] = writer{}
		}
	}},
	{"a large commit from three sessions", func(w *world) {
		for f := range 20 {
			w.claudeWrite(claudeA, fmt.Sprintf("a%02d.go", f), append(w.goHeader("claudeA"), w.goTidy("claudeA", 9)...))
			w.claudeWrite(claudeB, fmt.Sprintf("b%02d.go", f), append(w.goHeader("claudeB"), w.goTidy("claudeB", 9)...))
			w.codexAdd(codexA, fmt.Sprintf("c%02d.go", f), append(w.goHeader("codexA"), w.goTidy("codexA", 9)...))
			p := fmt.Sprintf("a%02d.go", f)
			w.claudeEdit(claudeB, p, w.read(p)[4], w.goFuncs("claudeB", 1, false))
			w.human(p, nil, w.humanLines(1))
			c := fmt.Sprintf("c%02d.go", f)
			w.human(c, &w.read(c)[8], w.humanLines(1))
		}
		w.format("gofmt", ".")
		w.commit("large")
	}},
}

// TestAttributionDriftScenarios runs the drift suite through the installed
// hooks and the built binary and holds every scenario to precision >=
// 99.5% and recall >= 98%, with no evidence on any human line.
func TestAttributionDriftScenarios(t *testing.T) {
	var total score
	for _, sc := range driftScenarios {
		t.Run(sc.name, func(t *testing.T) {
			w := newWorld(t)
			sc.run(w)
			s := w.check()
			t.Logf("%s: %d agent lines, %d human lines, precision %.4f, recall %.4f, human lines with evidence %d, kinds %v",
				sc.name, s.agentLines, s.humanLines, s.precision(), s.recall(), s.humanWithEvidence, s.kinds)
			if s.agentLines == 0 || s.humanLines == 0 {
				t.Errorf("scored %d agent and %d human lines: the scenario must have both", s.agentLines, s.humanLines)
			}
			if s.precision() < 0.995 || s.recall() < 0.98 || s.humanWithEvidence > 0 {
				t.Errorf("below the bar: precision %.4f (>= 0.995), recall %.4f (>= 0.98), human lines with evidence %d (0)",
					s.precision(), s.recall(), s.humanWithEvidence)
			}
			total.add(s)
		})
	}
	t.Logf("drift suite: %d scenarios, %d agent lines, %d human lines, precision %.4f, recall %.4f, human lines with evidence %d, kinds %v",
		len(driftScenarios), total.agentLines, total.humanLines, total.precision(), total.recall(), total.humanWithEvidence, total.kinds)
}
