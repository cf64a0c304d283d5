package blame

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ctx/store"
	"ctx/wake"
)

// The hook through the daemon: with the store's daemon running, ctx hooks
// run post-commit hands its work to it and waits. The attribution must be
// the one the hook makes itself, and a daemon that is gone or hung must
// cost no note.

// startDaemon runs the built binary's ctx daemon run for the world's
// store until the test ends (or stop is called) and waits until it
// answers.
func (w *world) startDaemon() (pid int, stop func()) {
	w.t.Helper()
	cmd := exec.Command(w.bin, "daemon", "run")
	cmd.Dir, cmd.Env = w.dir, os.Environ()
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			_ = cmd.Process.Signal(syscall.SIGCONT)
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
		}
	}
	w.t.Cleanup(stop)
	if _, err := wake.WaitReady(w.store, 30*time.Second); err != nil {
		w.t.Fatalf("daemon: %v", err)
	}
	return cmd.Process.Pid, stop
}

// daemonIdle waits until the daemon has no pass running or due: two
// syncs, the second after the watch debounce.
func (w *world) daemonIdle() {
	w.t.Helper()
	for range 2 {
		if _, err := wake.Wake(w.store, 30*time.Second); err != nil {
			w.t.Fatalf("daemon: %v", err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// daemonHooks counts the post-commit hooks the daemon did for the world's
// repository.
func (w *world) daemonHooks() int {
	return strings.Count(w.daemonLog(), "post-commit "+w.dir+": done in ")
}

func (w *world) daemonLog() string {
	b, _ := os.ReadFile(filepath.Join(w.store, "logs", "daemon.log"))
	return string(b)
}

// TestAttributionDriftThroughDaemon runs the drift suite with the daemon
// running: every commit's hook is done by the daemon, and every scenario
// is held to the bar the hook in process is held to.
func TestAttributionDriftThroughDaemon(t *testing.T) {
	var total score
	for _, sc := range driftScenarios {
		t.Run(sc.name, func(t *testing.T) {
			w := newWorld(t)
			w.startDaemon()
			before := strings.Count(w.git("log", "--format=%H"), "\n") + 1
			sc.run(w)
			commits := strings.Count(w.git("log", "--format=%H"), "\n") + 1 - before
			s := w.check()
			t.Logf("%s: %d agent lines, %d human lines, precision %.4f, recall %.4f, human lines with evidence %d, kinds %v",
				sc.name, s.agentLines, s.humanLines, s.precision(), s.recall(), s.humanWithEvidence, s.kinds)
			if s.precision() < 0.995 || s.recall() < 0.98 || s.humanWithEvidence > 0 {
				t.Errorf("below the bar: precision %.4f (>= 0.995), recall %.4f (>= 0.98), human lines with evidence %d (0)",
					s.precision(), s.recall(), s.humanWithEvidence)
			}
			if n := w.daemonHooks(); n < commits || commits == 0 {
				t.Errorf("the daemon did %d post-commit hooks for %d commits", n, commits)
			}
			total.add(s)
		})
	}
	t.Logf("drift suite through the daemon: %d scenarios, %d agent lines, %d human lines, precision %.4f, recall %.4f, human lines with evidence %d, kinds %v",
		len(driftScenarios), total.agentLines, total.humanLines, total.precision(), total.recall(), total.humanWithEvidence, total.kinds)
}

// TestHookDaemonGoneOrHung: a daemon killed (its socket file left behind)
// or stopped (the kernel accepts the connection, nobody answers) costs the
// commit nothing: the hook does the work itself, after at most the
// acceptance bound; a stopped daemon that resumes leaves the request it
// read too late to the hook that already did it.
func TestHookDaemonGoneOrHung(t *testing.T) {
	w := newWorld(t)
	pid, stop := w.startDaemon()

	a := append(w.goHeader("claudeA"), w.goTidy("claudeA", 3)...)
	w.claudeWrite(claudeA, "a.go", a)
	w.human("a.go", nil, w.humanLines(1))
	w.commit("through the daemon")
	if n := w.daemonHooks(); n != 1 {
		t.Fatalf("the daemon did %d hooks, want 1", n)
	}

	// Hung (while idle: a daemon stopped holding the writer lock leaves the
	// hook the store as it is after the refresh's bound): the kernel
	// accepts the connection for a stopped process.
	w.daemonIdle()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	b := append(w.goHeader("claudeA"), w.goTidy("claudeA", 2)...)
	w.claudeWrite(claudeA, "b.go", b)
	w.human("b.go", nil, w.humanLines(1))
	t0 := time.Now()
	hung := w.commit("the daemon is hung")
	if d := time.Since(t0); d > wake.DefaultHookAck+20*time.Second {
		t.Errorf("the commit took %s with a hung daemon", d)
	}
	inHook := w.note(hung)
	if inHook == nil || len(inHook.Records) == 0 {
		t.Fatal("no note from the hook while the daemon was hung")
	}
	log, _ := os.ReadFile(filepath.Join(w.store, "logs", "hooks.log"))
	if !strings.Contains(string(log), "the daemon did not do it") {
		t.Errorf("hooks.log does not say the daemon was passed over:\n%s", log)
	}
	if err := os.Remove(filepath.Join(w.store, "logs", "hooks.log")); err != nil {
		t.Fatal(err)
	}
	// It resumes and reads the request the hook stopped waiting for: it
	// leaves it (HEAD may have moved since), and the note stays the hook's.
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(w.daemonLog(), "past the hook's wait; left to the hook") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := w.daemonHooks(); n != 1 || !strings.Contains(w.daemonLog(), "left to the hook") {
		t.Errorf("the resumed daemon did %d hooks, want 1 (the stale request left):\n%s", n, w.daemonLog())
	}
	if got := w.note(hung); got == nil || string(got.Encode()) != string(inHook.Encode()) {
		t.Errorf("the note changed after the daemon resumed:\n%s\nwant\n%s", got.Encode(), inHook.Encode())
	}

	// Gone: killed, its socket file left behind.
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	stop()
	if _, err := os.Stat(store.At(w.store).Socket()); err != nil {
		t.Errorf("the killed daemon's socket file: %v", err)
	}
	c := append(w.goHeader("codexA"), w.goTidy("codexA", 2)...)
	w.codexAdd(codexA, "c.go", c)
	w.human("c.go", nil, w.humanLines(1))
	w.commit("the daemon is gone")

	s := w.check()
	if s.precision() < 1 || s.recall() < 1 || s.humanWithEvidence > 0 {
		t.Errorf("precision %.4f, recall %.4f, human lines with evidence %d", s.precision(), s.recall(), s.humanWithEvidence)
	}
}

// TestAttributionScenariosThroughDaemon runs the first suite (amend,
// rebase, cherry-pick, squash, pulls) with the daemon running: post-commit
// is the daemon's, the other hooks the hook's own, and the suite is held
// to its bar.
func TestAttributionScenariosThroughDaemon(t *testing.T) {
	var total score
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			w := newWorld(t)
			w.startDaemon()
			sc.run(w)
			s := w.check()
			t.Logf("%s: %d agent lines, %d human lines, precision %.4f, recall %.4f",
				sc.name, s.agentLines, s.humanLines, s.precision(), s.recall())
			if w.daemonHooks() == 0 {
				t.Error("the daemon did no post-commit hook")
			}
			total.add(s)
		})
	}
	t.Logf("attribution suite through the daemon: %d scenarios, %d agent lines, %d human lines, precision %.4f, recall %.4f, human lines with evidence %d",
		len(scenarios), total.agentLines, total.humanLines, total.precision(), total.recall(), total.humanWithEvidence)
	if total.precision() < 0.99 || total.recall() < 0.95 || total.humanWithEvidence > 0 {
		t.Fatalf("below the bar: precision %.4f (>= 0.99), recall %.4f (>= 0.95), human lines with evidence %d (0)",
			total.precision(), total.recall(), total.humanWithEvidence)
	}
}

// TestHookStartsTheDaemon: a hook that finds no daemon (autostart allowed)
// links the commit itself, then starts the daemon, which does the next
// commit's hook.
func TestHookStartsTheDaemon(t *testing.T) {
	w := newWorld(t)
	t.Setenv("CTX_DAEMON", "")
	t.Cleanup(func() {
		if _, err := wake.Stop(w.store, 30*time.Second); err != nil && !errors.Is(err, wake.ErrNotRunning) {
			t.Errorf("stop the daemon: %v", err)
		}
	})
	a := append(w.goHeader("claudeA"), w.goTidy("claudeA", 2)...)
	w.claudeWrite(claudeA, "a.go", a)
	w.human("a.go", nil, w.humanLines(1))
	first := w.commit("no daemon yet")
	if n := w.note(first); n == nil || len(n.Records) == 0 {
		t.Fatal("the hook did not link the commit before starting the daemon")
	}
	if _, err := wake.WaitReady(w.store, 30*time.Second); err != nil {
		t.Fatalf("no daemon after the hook: %v", err)
	}
	b := append(w.goHeader("claudeA"), w.goTidy("claudeA", 2)...)
	w.claudeWrite(claudeA, "b.go", b)
	w.human("b.go", nil, w.humanLines(1))
	w.commit("the daemon's")
	if n := w.daemonHooks(); n != 1 {
		t.Errorf("the started daemon did %d hooks, want 1", n)
	}
	s := w.check()
	if s.precision() < 1 || s.recall() < 1 || s.humanWithEvidence > 0 {
		t.Errorf("precision %.4f, recall %.4f, human lines with evidence %d", s.precision(), s.recall(), s.humanWithEvidence)
	}
}
