package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
)

// withPager runs print with stdout going through a pager where git would
// use one: stdout is a terminal and the pager is not disabled. The pager
// is $CTX_PAGER, else $PAGER, else less; "" or "cat" means none. less
// gets LESS=FRX unless set, so output shorter than a screen is printed
// and left on it.
func withPager(env *Env, print func()) {
	pager, ok := env.pagerCommand()
	if !ok {
		bufferedPrint(env, print)
		return
	}
	cmd := exec.Command("sh", "-c", pager)
	cmd.Stdout, cmd.Stderr = env.Stdout, env.Stderr
	cmd.Env = os.Environ()
	if env.Getenv("LESS") == "" {
		cmd.Env = append(cmd.Env, "LESS=FRX")
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		print()
		return
	}
	if err := cmd.Start(); err != nil {
		print()
		return
	}
	out := env.Stdout
	env.Stdout = in
	print()
	env.Stdout = out
	in.Close()
	_ = cmd.Wait() // quitting the pager early is not an error
}

func (e *Env) pagerCommand() (string, bool) {
	if !e.IsTTY(e.Stdout) {
		return "", false
	}
	for _, name := range []string{"CTX_PAGER", "PAGER"} {
		if v, set := e.lookup(name); set {
			v = strings.TrimSpace(v)
			return v, v != "" && v != "cat"
		}
	}
	if _, err := exec.LookPath("less"); err != nil {
		return "", false
	}
	return "less", true
}

// lookup reports an environment variable and whether it is set (an empty
// value counts as set).
func (e *Env) lookup(name string) (string, bool) {
	if e.Lookup != nil {
		return e.Lookup(name)
	}
	v := e.Getenv(name)
	return v, v != ""
}

// bufferedPrint runs print with stdout buffered when it is not a terminal
// (a pipe or a file): a timeline of a month is thousands of lines, and one
// write each cost more than rendering them.
func bufferedPrint(env *Env, print func()) {
	if env.IsTTY(env.Stdout) {
		print()
		return
	}
	out := env.Stdout
	bw := bufio.NewWriterSize(out, 64<<10)
	env.Stdout = bw
	defer func() {
		env.Stdout = out
		_ = bw.Flush()
	}()
	print()
}
