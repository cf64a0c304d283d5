package gitstore_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ctx/gitstore"
	"ctx/internal/corpus"
)

// TestMain lets a test run a push in a child process it can kill.
func TestMain(m *testing.M) {
	if spec := os.Getenv("CTX_GITSTORE_CHILD_PUSH"); spec != "" {
		home, url, _ := strings.Cut(spec, "\n")
		os.Exit(childPush(home, url))
	}
	os.Exit(m.Run())
}

func childPush(home, url string) int {
	t := &testing.T{}
	m := &machine{t: t, ctx: home, id: gitstore.ExistingMachine(home)}
	if _, err := m.syncer().Push(context.Background(), gitstore.Remote{Name: "team", URL: url}, m.source(), all); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func TestConcurrentPushesFromTwoMachines(t *testing.T) {
	dir, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	for i := 0; i < 20; i++ {
		a.session("/w/a", "alpha", 70)
		b.session("/w/b", "beta", 70)
	}
	a.importOnce()
	b.importOnce()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, m := range []*machine{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = m.syncer().Push(context.Background(), r, m.source(), all)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("concurrent pushes: %v", errs)
	}
	git(t, dir, "fsck", "--strict", "--no-dangling")
	refs := git(t, dir, "for-each-ref", "--format=%(refname)", gitstore.RefPrefix)
	if !strings.Contains(refs, a.id) || !strings.Contains(refs, b.id) {
		t.Fatalf("refs after concurrent pushes:\n%s", refs)
	}
	c := newMachine(t, "gamma")
	c.session("/w/c", "gamma", 1)
	c.importOnce()
	if _, err := c.pull(r); err != nil {
		t.Fatal(err)
	}
	if n := len(c.tree()); n != 41 {
		t.Fatalf("gamma holds %d sessions, want 41", n)
	}
}

func TestPushKilledMidwayLeavesTheRemoteWhole(t *testing.T) {
	dir, url := bare(t)
	m := newMachine(t, "alpha")
	if _, err := corpus.Generate(m.home, corpus.Options{Events: 6000, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	m.importOnce()
	for _, after := range []time.Duration{20 * time.Millisecond, 80 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CTX_GITSTORE_CHILD_PUSH="+m.ctx+"\n"+url)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the push and its git processes
		_ = cmd.Wait()
		// Whatever the remote names, it holds completely.
		git(t, dir, "fsck", "--connectivity-only", "--no-dangling")
		if ref := strings.TrimSpace(git(t, dir, "for-each-ref", "--format=%(objectname)", gitstore.RefPrefix)); ref != "" {
			git(t, dir, "rev-list", "--objects", "--missing=error", ref)
		}
	}
	rep, err := m.push(gitstore.Remote{Name: "team", URL: url})
	if err != nil {
		t.Fatalf("push after kills: %v", err)
	}
	git(t, dir, "fsck", "--strict", "--no-dangling")
	if got := strings.TrimSpace(git(t, dir, "rev-parse", gitstore.MachineRef(m.id).String())); got != rep.Commit.String() {
		t.Fatalf("remote ref %s, pushed %s", got, rep.Commit)
	}
	b := newMachine(t, "beta")
	b.session("/w/b", "x", 1)
	b.importOnce()
	if _, err := b.pull(gitstore.Remote{Name: "team", URL: url}); err != nil {
		t.Fatal(err)
	}
	if len(b.tree()) != rep.Exported.Manifest.Sessions+1 {
		t.Fatalf("beta holds %d sessions, want %d", len(b.tree()), rep.Exported.Manifest.Sessions+1)
	}
}

func TestSyncOverGitDaemon(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir, _ := bare(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	d := exec.Command("git", "daemon", "--export-all", "--enable=receive-pack", "--reuseaddr",
		"--listen=127.0.0.1", fmt.Sprintf("--port=%d", port), "--base-path="+filepath.Dir(dir), filepath.Dir(dir))
	// git runs git-daemon as its child: both go in a group of their own,
	// which the cleanup kills whole (killing git alone left git-daemon
	// listening, holding whatever the test process had open).
	d.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-d.Process.Pid, syscall.SIGKILL); _ = d.Wait() })
	url := fmt.Sprintf("git://127.0.0.1:%d/%s", port, filepath.Base(dir))
	for i := 0; ; i++ { // until the daemon listens
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		if i > 100 {
			t.Fatal("git daemon did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	r := gitstore.Remote{Name: "daemon", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	a.session("/w/a", "over the wire", 3)
	a.importOnce()
	b.session("/w/b", "local", 1)
	b.importOnce()
	if _, err := a.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := b.pull(r); err != nil {
		t.Fatal(err)
	}
	if len(b.search("wire")) != 1 {
		t.Fatal("the session pulled over git:// is not searchable")
	}
}
