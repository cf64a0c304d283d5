package daemon_test

import (
	"bufio"
	"context"
	ctxstore "ctx/store"
	"ctx/wake"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"ctx/core"
	"ctx/daemon"
	"ctx/query"
	"ctx/sources/claude"
)

// scratch is a short-pathed home and store (unix socket paths are limited
// to about 108 bytes, and t.TempDir is long).
type scratch struct {
	dir, home, store string
}

func newScratch(t *testing.T) *scratch {
	t.Helper()
	dir, err := os.MkdirTemp("", "ctxd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &scratch{dir: dir, home: filepath.Join(dir, "h"), store: filepath.Join(dir, "s")}
	if err := os.MkdirAll(filepath.Join(s.home, ".claude", "projects"), 0o700); err != nil {
		t.Fatal(err)
	}
	return s
}

// sessionFile is a Claude Code transcript under the scratch home.
func (s *scratch) sessionFile(project, session string) string {
	return filepath.Join(s.home, ".claude", "projects", project, session+".jsonl")
}

// appendRecords appends n user records with the given text (numbered) to
// a Claude Code session file in the real record shape.
func (s *scratch) appendRecords(t *testing.T, project, session, text string, n int) {
	t.Helper()
	appendRecords(t, s.sessionFile(project, session), project, session, text, n)
}

// appendRecords appends n user records of session to the transcript at
// path.
func appendRecords(t *testing.T, path, project, session, text string, n int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	base := fi.Size()
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%s-%d-%d", session, base, i)
		rec := map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/work/" + project,
			"sessionId": session, "version": "1.0.51", "type": "user", "uuid": id,
			"timestamp": time.Date(2025, 7, 13, 21, 0, 0, 0, time.UTC).Add(time.Duration(base+int64(i)) * time.Millisecond).Format(time.RFC3339Nano),
			"message":   map[string]any{"role": "user", "content": fmt.Sprintf("%s number %d", text, i)}}
		line, _ := json.Marshal(rec)
		if _, err := f.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
	}
}

func (s *scratch) env() core.Env {
	return core.Env{Home: s.home, Getenv: func(string) string { return "" }}
}

func (s *scratch) options() daemon.Options {
	env := s.env()
	return daemon.Options{Home: s.store, Env: env, Version: "test", Rescan: 500 * time.Millisecond,
		Sources: func() ([]core.Source, error) {
			return []core.Source{{Kind: core.KindAutomatic, Provider: claude.New()}}, nil
		}}
}

// runInProcess runs a daemon in this process until the test ends; the
// returned channel is closed when Run returns, and *err is its result.
func runInProcess(t *testing.T, opts daemon.Options) (<-chan struct{}, *error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var runErr error
	go func() {
		defer close(done)
		runErr = daemon.Run(ctx, opts)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("daemon did not stop")
		}
	})
	if _, err := wake.WaitReady(opts.Home, 30*time.Second); err != nil {
		t.Fatalf("daemon not ready: %v", err)
	}
	return done, &runErr
}

// hits searches the store for q; 0 when nothing is imported yet.
func hits(t *testing.T, store, q string) int {
	t.Helper()
	r, err := query.Open(store)
	if err != nil {
		return 0
	}
	defer r.Close()
	res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Results)
}

// eventually polls cond every 20 ms until it holds or a generous deadline
// passes. Nothing here measures speed.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var (
	buildOnce sync.Once
	builtExe  string
	buildErr  error
)

// ctxBinary builds the ctx front once per test run, with ctx-core beside
// it (the front execs it for everything but the searches a daemon runs).
func ctxBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the ctx binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ctxbin")
		if err != nil {
			buildErr = err
			return
		}
		builtExe = filepath.Join(dir, "ctx")
		for bin, pkg := range map[string]string{builtExe: "ctx/cmd/ctx", filepath.Join(dir, "ctx-core"): "ctx/cmd/ctx-core"} {
			if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtExe
}

// daemonCmd is ctx daemon run for the scratch store, never autostarting
// anything else.
func (s *scratch) daemonCmd(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(ctxBinary(t), append([]string{"daemon"}, args...)...)
	cmd.Env = []string{"HOME=" + s.home, "CTX_HOME=" + s.store, "CTX_DAEMON=off", "PATH=" + os.Getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(s.dir, "cfg")}
	return cmd
}

// rawRequest sends req as is on the socket and returns the reply line.
func rawRequest(t *testing.T, store, req string) string {
	t.Helper()
	c, err := net.Dial("unix", ctxstore.At(store).Socket())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	_, _ = c.Write([]byte(req))
	line, _ := bufio.NewReader(c).ReadString('\n')
	return line
}
