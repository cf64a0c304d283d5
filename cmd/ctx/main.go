// Command ctx is the front of ctx: the program a user and an agent run.
// Every command is ctx-core's (found beside this binary, else on PATH),
// which it becomes by exec. One is answered without it: ctx search is
// handed, command line, working directory, environment and whether its
// outputs are terminals, to the store's running daemon, which runs it as
// ctx-core would over the index shards it holds open and sends back what
// it wrote and its exit code.
//
// It exists because a process that links the index, the importer and the
// store pays about 30 ms of start-up before its first line of work, more
// than a warm search takes; this one links the wake protocol's messages
// alone and starts in a few. Whenever the daemon does not answer (none
// runs, it is another version, it refused, failed, died or was too slow),
// nothing has been printed and ctx-core runs the command itself, so the
// answer is the same either way.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"golang.org/x/sys/unix"

	"ctx/internal/exe"
	"ctx/internal/version"
	"ctx/store/layout"
	"ctx/wake/wire"
)

// core is the binary that has every command.
const core = "ctx-core"

func main() {
	args := os.Args[1:]
	if code, ok := viaDaemon(args); ok {
		os.Exit(code)
	}
	bin, ok := exe.Find(core)
	if !ok {
		fmt.Fprintf(os.Stderr, "ctx: %s is neither beside ctx nor on PATH: build both with make build, "+
			"or install them with go install ./cmd/ctx ./cmd/ctx-core ./cmd/ctx-mcp\n", core)
		os.Exit(1)
	}
	// ctx-core keeps the name it was run by (ctx), which the hooks it
	// installs call it by.
	err := syscall.Exec(bin, os.Args, os.Environ())
	fmt.Fprintf(os.Stderr, "ctx: run %s: %v\n", bin, err) // Exec returns only when it failed
	os.Exit(1)
}

// viaDaemon hands a search to the store's daemon and prints its answer;
// ok is false when the daemon did not answer and nothing was printed. A
// terminal's width goes as $COLUMNS, which ctx-core reads first.
func viaDaemon(args []string) (code int, ok bool) {
	if len(args) == 0 || args[0] != "search" {
		return 0, false
	}
	dir, err := os.Getwd()
	if err != nil {
		return 0, false
	}
	req := wire.Request{Op: "run", Version: version.Version, Args: args, Dir: dir, Env: os.Environ(),
		StdoutTTY: terminal(os.Stdout), StderrTTY: terminal(os.Stderr)}
	if _, set := os.LookupEnv("COLUMNS"); !set && req.StdoutTTY {
		if ws, err := unix.IoctlGetWinsize(int(os.Stdout.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
			req.Env = append(req.Env, "COLUMNS="+strconv.Itoa(int(ws.Col)))
		}
	}
	line, err := json.Marshal(req)
	if err != nil || len(line)+1 > wire.MaxRequest {
		return 0, false
	}
	userHome := os.Getenv("HOME") // as ctx-core reads it
	if userHome == "" {
		userHome = "/"
	}
	c, err := dial(layout.Socket(layout.Home(os.Getenv, userHome)))
	if err != nil {
		return 0, false
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(wire.RunWait)); err != nil {
		return 0, false
	}
	if _, err := c.Write(append(line, '\n')); err != nil {
		return 0, false
	}
	answer, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return 0, false // no daemon answered in time, or it died: ctx-core searches
	}
	var r wire.Reply
	if err := json.Unmarshal(answer, &r); err != nil || !r.OK || r.Run == nil {
		return 0, false
	}
	_, _ = os.Stdout.WriteString(r.Run.Stdout)
	_, _ = os.Stderr.WriteString(r.Run.Stderr)
	return r.Run.Exit, true
}

// terminal reports whether f is a terminal, as ctx-core decides it.
func terminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// dial connects to the unix socket at path without the net package, which
// would make this binary link the C resolver and start slower. The socket
// is non-blocking, so the connection honours deadlines, and a daemon whose
// backlog is full is not waited for.
func dial(path string) (*os.File, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}
