package daemon_test

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ctx/store"
	"ctx/wake"
)

// frontCases are ctx search command lines whose answers the front must
// give as ctx-core does: text and JSON hits, a relative --workspace (read
// against the client's directory), no hit, two usage errors, a missing
// argument and the command's help (the daemon builds only the search
// command under its root).
var frontCases = [][]string{
	{"search", "marmalade"},
	{"search", "marmalade", "--format", "json", "--limit", "2"},
	{"search", "marmalade", "--workspace", "h", "--format", "json"},
	{"search", "nothingmatchesthis"},
	{"search", "marmalade", "--bogus"},
	{"search", "marmalade", "--since", "7x", "--format", "json"},
	{"search"},
	{"search", "--help"},
}

// answer is what one ctx process printed and how it ended.
type answer struct {
	code        int
	out, errOut string
}

// tookTime matches the time a search took, in its text and JSON answers:
// the one part of an answer that differs from one run to the next.
var tookTime = regexp.MustCompile(`(, )\d+ ms\b|("took_ms": )\d+`)

// runIn runs bin with args in the scratch's directory and environment
// (PATH as given) and returns its answer with the search times blanked.
func (s *scratch) runIn(t *testing.T, bin, path string, args []string) answer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.dir
	cmd.Env = []string{"HOME=" + s.home, "CTX_HOME=" + s.store, "CTX_DAEMON=off", "PATH=" + path,
		"XDG_CONFIG_HOME=" + filepath.Join(s.dir, "cfg")}
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	blank := func(s string) string { return tookTime.ReplaceAllString(s, "${1}${2}N") }
	return answer{cmd.ProcessState.ExitCode(), blank(out.String()), blank(errOut.String())}
}

// expectSame fails the test where got differs from want, case by case.
func expectSame(t *testing.T, who string, want, got []answer) {
	t.Helper()
	for i := range frontCases {
		if got[i] != want[i] {
			t.Errorf("%s, ctx %s:\ngot  %+v\nwant %+v", who, strings.Join(frontCases[i], " "), got[i], want[i])
		}
	}
}

// frontSetup imports a small history and returns the answers of ctx-core
// reading the store itself (no daemon), and the paths of the front and
// of ctx-core.
func frontSetup(t *testing.T) (s *scratch, want []answer, front, core string) {
	s = newScratch(t)
	s.appendRecords(t, "alpha", "s1", "opening marmalade", 3)
	s.appendRecords(t, "beta", "s2", "closing marmalade", 2)
	s.run(t, "import")
	front = ctxBinary(t)
	core = filepath.Join(filepath.Dir(front), "ctx-core")
	for _, args := range frontCases {
		want = append(want, s.runIn(t, core, os.Getenv("PATH"), args))
	}
	if want[0].code != 0 || !strings.Contains(want[0].out, "marmalade") || want[4].code != 2 ||
		!strings.Contains(want[2].out, `"`+filepath.Join(s.dir, "h")+`"`) {
		t.Fatalf("ctx-core's own answers are not what this test expects: %+v", want)
	}
	return s, want, front, core
}

// TestFrontSearchThroughDaemon: with a daemon running, ctx search into a
// pipe is answered by the daemon: a front with no ctx-core beside it or on
// PATH (which could not answer otherwise) prints, case by case, exactly
// what ctx-core prints when it reads the store itself, exit codes and
// errors included, and the daemon counts the searches it ran.
func TestFrontSearchThroughDaemon(t *testing.T) {
	s, want, front, _ := frontSetup(t)
	s.startDaemon(t)
	lone := filepath.Join(t.TempDir(), "ctx")
	data, err := os.ReadFile(front)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, data, 0o700); err != nil {
		t.Fatal(err)
	}
	var got []answer
	for _, args := range frontCases {
		got = append(got, s.runIn(t, lone, t.TempDir(), args))
	}
	expectSame(t, "through the daemon", want, got)
	st, err := wake.Status(s.store)
	if err != nil || st.Searches != uint64(len(frontCases)) {
		t.Fatalf("daemon status %+v, %v: want %d searches answered", st, err, len(frontCases))
	}
	// Any other command needs ctx-core, which this front cannot find.
	if a := s.runIn(t, lone, t.TempDir(), []string{"status"}); a.code != 1 || !strings.Contains(a.errOut, "ctx-core is neither beside ctx nor on PATH") {
		t.Fatalf("ctx status without ctx-core: %+v", a)
	}
}

// onTerminal runs bin search marmalade with a 70-column terminal as its
// standard output (util-linux's script makes one) and returns what the
// terminal showed, the search time blanked.
func (s *scratch) onTerminal(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command("script", "-qec", "stty cols 70 rows 40; exec "+bin+" search marmalade", "/dev/null")
	cmd.Dir = s.dir
	cmd.Env = []string{"HOME=" + s.home, "CTX_HOME=" + s.store, "CTX_DAEMON=off", "PATH=" + os.Getenv("PATH"), "TERM=xterm"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("script: %v", err)
	}
	return tookTime.ReplaceAllString(string(out), "${1}${2}N")
}

// TestFrontSearchOnTerminal: a search typed at a terminal is answered by
// the daemon too, as ctx-core shows it there: coloured, cut to the
// terminal's width.
func TestFrontSearchOnTerminal(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script (util-linux) is not on PATH: no terminal to run ctx on")
	}
	s, _, front, core := frontSetup(t)
	want := s.onTerminal(t, core)
	if !strings.Contains(want, "\x1b[") || !strings.Contains(want, "marmalade") {
		t.Fatalf("ctx-core on a terminal, no colour or no hit:\n%q", want)
	}
	s.startDaemon(t)
	if got := s.onTerminal(t, front); got != want {
		t.Fatalf("through the daemon on a terminal:\n%q\nctx-core alone:\n%q", got, want)
	}
	if st, err := wake.Status(s.store); err != nil || st.Searches != 1 {
		t.Fatalf("daemon status %+v, %v: want the one search answered by the daemon", st, err)
	}
}

// TestFrontFallsBack: when what listens on the store's socket refuses the
// search (a daemon of another version) or closes the connection without
// an answer (a daemon that died while serving it), the front prints
// nothing of its own and ctx-core answers, exactly as without a daemon.
func TestFrontFallsBack(t *testing.T) {
	s, want, front, _ := frontSetup(t)
	for _, tc := range []struct {
		name  string
		reply string
	}{
		{"another version", `{"ok":false,"error":"daemon version \"0.0.1\", client \"0.1.0-dev\": answer it yourself"}` + "\n"},
		{"died while serving", ""},
		{"died mid-reply", `{"ok":true,"run":{"stdout":"1. 2026-01-02  half a hit`},
		{"not a reply", "HTTP/1.1 400 Bad Request\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("unix", store.At(s.store).Socket())
			if err != nil {
				t.Fatal(err)
			}
			requests := make(chan string, 64) // the front's and ctx-core's own requests
			go func() {
				defer close(requests)
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					line, _ := bufio.NewReader(c).ReadString('\n')
					requests <- line
					_, _ = c.Write([]byte(tc.reply))
					c.Close()
				}
			}()
			var got []answer
			for _, args := range frontCases {
				got = append(got, s.runIn(t, front, os.Getenv("PATH"), args))
			}
			ln.Close()
			expectSame(t, tc.name, want, got)
			runs := 0
			for line := range requests {
				if strings.Contains(line, `"op":"run"`) {
					runs++
				}
			}
			if runs != len(frontCases) {
				t.Fatalf("the front asked the socket %d times, want once per search (%d)", runs, len(frontCases))
			}
		})
	}
}
