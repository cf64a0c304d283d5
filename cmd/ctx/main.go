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
// than a warm search takes; this one links the run op's lines (package
// runop, without encoding/json) and the store's paths alone, and starts in
// a few. Whenever the daemon does not answer (none
// runs, it is another version, it refused, failed, died or was too slow),
// nothing has been printed and ctx-core runs the command itself, so the
// answer is the same either way.
package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"golang.org/x/sys/unix"

	"ctx/internal/exe"
	"ctx/internal/version"
	"ctx/store/layout"
	"ctx/wake/wire/runop"
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
		os.Stderr.WriteString("ctx: " + core + " is neither beside ctx nor on PATH: build both with make build, " +
			"or install them with go install ./cmd/ctx ./cmd/ctx-core ./cmd/ctx-mcp\n")
		os.Exit(1)
	}
	// ctx-core keeps the name it was run by (ctx), which the hooks it
	// installs call it by.
	err := syscall.Exec(bin, os.Args, os.Environ())
	os.Stderr.WriteString("ctx: run " + bin + ": " + err.Error() + "\n") // Exec returns only when it failed
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
	req := runop.Request{Version: version.Version, Args: args, Dir: dir, Env: os.Environ(),
		StdoutTTY: terminal(os.Stdout), StderrTTY: terminal(os.Stderr)}
	if _, set := os.LookupEnv("COLUMNS"); !set && req.StdoutTTY {
		if ws, err := unix.IoctlGetWinsize(int(os.Stdout.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
			req.Env = append(req.Env, "COLUMNS="+strconv.Itoa(int(ws.Col)))
		}
	}
	line, err := req.Append(make([]byte, 0, 8<<10))
	if err != nil || len(line)+1 > runop.MaxRequest {
		return 0, false // not valid UTF-8, or too long: ctx-core runs it
	}
	userHome := os.Getenv("HOME") // as ctx-core reads it
	if userHome == "" {
		userHome = "/"
	}
	conn, err := dial(layout.Socket(layout.Home(os.Getenv, userHome)))
	if err != nil {
		return 0, false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(runop.Wait))
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return 0, false
	}
	answer, err := readLine(conn)
	if err != nil {
		return 0, false // no daemon answered in time, or it died: ctx-core searches
	}
	r, err := runop.ParseReply(answer)
	if err != nil || !r.OK || !r.Ran {
		return 0, false
	}
	_, _ = os.Stdout.WriteString(r.Stdout)
	_, _ = os.Stderr.WriteString(r.Stderr)
	return r.Exit, true
}

// terminal reports whether f is a terminal, as ctx-core decides it.
func terminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// dial connects to the unix socket at path without the net package, which
// would make this binary link the C resolver and start slower. The connect
// does not block, so a daemon whose backlog is full is not waited for. The
// socket stays non-blocking and is read and written through the runtime's
// poller (an *os.File), so that while the daemon works this process sleeps
// in one epoll wait: a blocking read kept the runtime's monitor thread
// waking every few tens of microseconds for the whole wait, which cost
// this process twice the CPU of its start and took it from the daemon.
func dial(path string) (*os.File, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// readLine reads from f up to its first newline (the one reply line); a
// timeout or the end before it is an error.
func readLine(f *os.File) ([]byte, error) {
	buf := make([]byte, 0, 64<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		start := len(buf)
		buf = buf[:start+n]
		if i := bytes.IndexByte(buf[start:], '\n'); i >= 0 {
			return buf[:start+i], nil
		}
		if err != nil {
			return nil, err // io.EOF when the daemon closed before a newline
		}
	}
}
