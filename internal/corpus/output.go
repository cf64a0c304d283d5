package corpus

import (
	"strconv"
	"strings"
)

// shellRun is one shell command with its output and exit code.
type shellRun struct {
	cmd  string
	desc string
	out  []byte
	exit int
	secs float64
}

// shell draws a command and the output it plausibly printed.
func (g *gen) shell() shellRun {
	n := g.outLen()
	var s shellRun
	switch x := g.r.IntN(100); {
	case x < 24:
		s = g.runTests(n)
	case x < 31:
		s = g.runBuild(n)
	case x < 39:
		s = g.runGitStatus()
	case x < 46:
		s = g.runGitLog(n)
	case x < 55:
		s = g.runGitDiff(n)
	case x < 68:
		s = g.runGrep(n)
	case x < 73:
		s = g.runLs(n)
	case x < 84:
		s = g.runCat(n)
	case x < 91:
		s = g.runLogs(n)
	case x < 94:
		s = g.runPanic(n)
	default:
		s = g.runLint(n)
	}
	s.secs = float64(g.logUniform(1, 400)) / 10
	return s
}

func (g *gen) describe(verb string) string {
	b := appendTitle(nil, verb)
	b = append(b, ' ')
	b = append(b, g.adj()...)
	b = append(b, ' ')
	b = append(b, g.word()...)
	return string(b) + "s"
}

func (g *gen) runTests(n int) shellRun {
	s := shellRun{cmd: g.testCommand(), desc: g.describe("run")}
	fail := g.chance(28)
	if fail {
		s.exit = 1
	}
	switch g.ws.lang {
	case "py":
		s.out = g.pytestOut(nil, n, fail)
	case "ts":
		s.out = g.jestOut(nil, n, fail)
	default:
		s.out = g.goTestOut(nil, n, fail)
	}
	return s
}

func (g *gen) goTestOut(b []byte, n int, fail bool) []byte {
	for len(b) < n-200 {
		name := "Test" + title(g.ident())
		b = append(b, "=== RUN   "...)
		b = append(b, name...)
		b = append(b, "\n--- PASS: "...)
		b = append(b, name...)
		b = append(b, " (0.0"...)
		b = append(b, byte('0'+g.r.IntN(10)))
		b = append(b, "s)\n"...)
	}
	pkg := g.ws.module + "/" + g.pkgDir()
	if !fail {
		b = append(b, "PASS\nok  \t"...)
		return append(append(b, pkg...), "\t0.412s\n"...)
	}
	name := "Test" + title(g.ident())
	b = append(b, "--- FAIL: "...)
	b = append(b, name...)
	b = append(b, " (0.02s)\n    "...)
	b = append(b, baseName(g.rel())...)
	b = append(b, ':')
	b = append(b, g.number()...)
	b = append(b, ": "...)
	b = append(b, g.ident()...)
	b = append(b, "() = "...)
	b = append(b, g.number()...)
	b = append(b, ", want "...)
	b = append(b, g.number()...)
	b = append(b, "\nFAIL\nFAIL\t"...)
	return append(append(b, pkg...), "\t0.031s\nFAIL\n"...)
}

func (g *gen) pytestOut(b []byte, n int, fail bool) []byte {
	b = append(b, "============================= test session starts ==============================\n"...)
	for len(b) < n-250 {
		b = append(b, g.rel()...)
		b = append(b, " ....."...)
		b = append(b, strings.Repeat(".", g.r.IntN(20))...)
		b = append(b, " [ "...)
		b = append(b, strconv.Itoa(g.between(10, 99))...)
		b = append(b, "%]\n"...)
	}
	if !fail {
		b = append(b, strconv.Itoa(g.between(5, 300))...)
		return append(b, " passed in 1.84s\n"...)
	}
	test := "test_" + strings.ToLower(g.ident())
	b = append(b, "=================================== FAILURES ===================================\n"...)
	b = append(b, "    def "+test+"(self):\n>       assert "...)
	b = append(b, g.ident()...)
	b = append(b, " == "...)
	b = append(b, g.number()...)
	b = append(b, "\nE       AssertionError: "...)
	b = g.sentence(b)
	b = append(b, "\nFAILED tests/unit/"+test+".py::"+test+"\n1 failed, "...)
	return append(b, "41 passed in 2.10s\n"...)
}

func (g *gen) jestOut(b []byte, n int, fail bool) []byte {
	status := "PASS "
	if fail {
		status = "FAIL "
	}
	for len(b) < n-120 {
		b = append(b, status...)
		b = append(b, g.rel()...)
		b = append(b, "\n  "...)
		b = append(b, g.ident()...)
		b = append(b, "\n    ✓ "...)
		b = g.sentence(b)
		b = append(b, " (3 ms)\n"...)
	}
	if fail {
		b = append(b, "  ● "...)
		b = append(b, g.ident()...)
		b = append(b, "\n    expect(received).toEqual(expected)\nTests:       1 failed, 17 passed, 18 total\n"...)
		return b
	}
	return append(b, "Tests:       18 passed, 18 total\n"...)
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// compileErr appends one compiler-style diagnostic line.
func (g *gen) compileErr(b []byte) []byte {
	b = append(b, g.rel()...)
	b = append(b, ':')
	b = append(b, g.number()...)
	b = append(b, ':')
	b = append(b, strconv.Itoa(g.between(2, 40))...)
	msgs := []string{": undefined: ", ": cannot use value as type ", ": declared and not used: ",
		": too many arguments in call to ", ": missing return in "}
	b = append(b, pick(g.r, msgs)...)
	b = append(b, g.ident()...)
	return append(b, '\n')
}

func (g *gen) runBuild(n int) shellRun {
	s := shellRun{cmd: pick(g.r, []string{"go build ./...", "go vet ./...", "make build"}), desc: g.describe("build")}
	if !g.chance(35) {
		s.out = []byte{}
		return s
	}
	s.exit = 1
	s.out = append(s.out, "# "+g.ws.module+"/"+g.pkgDir()+"\n"...)
	for len(s.out) < n/2 {
		s.out = g.compileErr(s.out)
	}
	return s
}

func (g *gen) runLint(n int) shellRun {
	s := shellRun{cmd: pick(g.r, []string{"make lint", "golangci-lint run ./...", "staticcheck ./..."}),
		desc: g.describe("lint")}
	if g.chance(55) {
		return s
	}
	s.exit = 1
	for len(s.out) < n/2 {
		s.out = append(s.out, g.rel()...)
		s.out = append(s.out, ':')
		s.out = append(s.out, g.number()...)
		s.out = append(s.out, ":5: "...)
		s.out = g.sentence(s.out)
		s.out = append(s.out, " ("+pick(g.r, []string{"unused", "errcheck", "govet", "ineffassign", "SA4006"})+")\n"...)
	}
	return s
}

func (g *gen) runPanic(n int) shellRun {
	s := shellRun{cmd: "go run ./cmd/" + g.word(), desc: g.describe("run"), exit: 2}
	s.out = g.logLines(s.out, n/2)
	s.out = append(s.out, "panic: runtime error: invalid memory address or nil pointer dereference\n"...)
	s.out = append(s.out, "[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6f2a1c]\n\ngoroutine 1 [running]:\n"...)
	for range g.between(3, 9) {
		s.out = append(s.out, g.ws.module+"/"+g.pkgDir()+".(*"...)
		s.out = append(s.out, title(g.ident())...)
		s.out = append(s.out, ")."...)
		s.out = append(s.out, title(g.ident())...)
		s.out = append(s.out, "(...)\n\t"+g.abs(g.rel())+":"...)
		s.out = append(s.out, g.number()...)
		s.out = append(s.out, " +0x"+randHex(g.r, 2)+"\n"...)
	}
	s.out = append(s.out, "exit status 2\n"...)
	return s
}
