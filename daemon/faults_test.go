package daemon_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ctx/query"
	"ctx/store"
	"ctx/wake"
)

// startDaemon runs the ctx binary's daemon for the scratch store until the
// test ends and waits until it answers.
func (s *scratch) startDaemon(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := s.daemonCmd(t, "run")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = wake.Stop(s.store, time.Minute)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	if _, err := wake.WaitReady(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// ctx runs the ctx binary (never autostarting a daemon) and returns its
// exit code, stdout and stderr.
func (s *scratch) ctx(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := s.daemonCmd(t)
	cmd.Args = append([]string{cmd.Path}, args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// verifyOK runs ctx verify and fails the test unless it passes.
func (s *scratch) verifyOK(t *testing.T, when string) {
	t.Helper()
	if code, out, errs := s.ctx(t, "verify"); code != 0 {
		t.Fatalf("%s: ctx verify exit %d\n%s%s", when, code, out, errs)
	}
}

// rewriteRecords truncates a session file and writes n records with the
// given text, reusing the record ids of the first version.
func (s *scratch) rewriteRecords(t *testing.T, project, session, text string, n int) {
	t.Helper()
	if err := os.Truncate(s.sessionFile(project, session), 0); err != nil {
		t.Fatal(err)
	}
	s.appendRecords(t, project, session, text, n)
}

// appendNoise appends n records of incompressible text (about 2 KiB each)
// carrying one searchable token.
func (s *scratch) appendNoise(t *testing.T, project, session, token string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		buf := make([]byte, 1024)
		_, _ = rand.Read(buf)
		s.appendRecords(t, project, session, token+" "+hex.EncodeToString(buf), 1)
	}
}

// TestSourceDirDeletedAndRecreated deletes a project directory and then the
// provider's whole root under a running daemon and writes new sessions
// there: the watches recover and the sessions of the vanished files stay.
// It runs against the binary, and in process with the slow rescan off so
// that only the watches can find the new files.
func TestSourceDirDeletedAndRecreated(t *testing.T) {
	t.Run("binary", func(t *testing.T) {
		s := newScratch(t)
		s.appendRecords(t, "x", "s", "opening marmalade", 3)
		s.appendRecords(t, "y", "t", "keeper wombat", 2)
		s.startDaemon(t)
		dirsComeBack(t, s)
	})
	t.Run("watches only", func(t *testing.T) {
		s := newScratch(t)
		s.appendRecords(t, "x", "s", "opening marmalade", 3)
		s.appendRecords(t, "y", "t", "keeper wombat", 2)
		opts := s.options()
		opts.Rescan = time.Hour
		runInProcess(t, opts)
		dirsComeBack(t, s)
	})
}

func dirsComeBack(t *testing.T, s *scratch) {
	eventually(t, "first import", func() bool { return hits(t, s.store, "marmalade") > 0 && hits(t, s.store, "wombat") > 0 })

	// A project directory goes and comes back with a new session.
	if err := os.RemoveAll(filepath.Dir(s.sessionFile("x", "s"))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // let the removal be seen on its own
	s.appendRecords(t, "x", "s2", "recreated narwhal", 2)
	eventually(t, "session in the recreated project", func() bool { return hits(t, s.store, "narwhal") > 0 })

	// The provider's whole root (~/.claude) goes and comes back.
	root := filepath.Join(s.home, ".claude")
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	s.appendRecords(t, "z", "s3", "reborn axolotl", 2)
	eventually(t, "session under the recreated root", func() bool { return hits(t, s.store, "axolotl") > 0 })
	s.appendRecords(t, "z", "s3", "later okapi", 1)
	eventually(t, "append under the recreated root", func() bool { return hits(t, s.store, "okapi") > 0 })

	for _, q := range []string{"marmalade", "wombat", "narwhal"} {
		if hits(t, s.store, q) == 0 {
			t.Errorf("%s: the session of a vanished file was dropped", q)
		}
	}
	s.verifyOK(t, "after the directories came back")
}

func TestTruncatedAndRewritten(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "first draft alpaca", 5)
	s.startDaemon(t)
	eventually(t, "first version", func() bool { return hits(t, s.store, "alpaca") == 5 })
	s.rewriteRecords(t, "x", "s", "second draft beluga", 3)
	eventually(t, "second version", func() bool { return hits(t, s.store, "beluga") == 3 })
	if n := hits(t, s.store, "alpaca"); n != 0 {
		t.Errorf("%d events of the truncated version still found", n)
	}
	if n := hits(t, s.store, "draft"); n != 3 {
		t.Errorf("draft: %d hits, want the 3 current events once each", n)
	}
	// A rewrite that is longer than the original and then grows again.
	s.rewriteRecords(t, "x", "s", "third draft caracal", 7)
	eventually(t, "third version", func() bool { return hits(t, s.store, "caracal") == 7 })
	s.appendRecords(t, "x", "s", "third draft continued", 1)
	eventually(t, "append to the rewrite", func() bool { return hits(t, s.store, "continued") == 1 })
	if n, b := hits(t, s.store, "draft"), hits(t, s.store, "beluga"); n != 8 || b != 0 {
		t.Errorf("after the third version: draft %d hits (want 8), beluga %d (want 0)", n, b)
	}
	s.verifyOK(t, "after the rewrites")
}

// TestDiskFullWhileWritingObjects fills a real filesystem under the object
// store: the import fails naming the full device, refs/active does not
// move, verify passes, and the import finishes once there is space. It
// needs root to mount a small tmpfs; without it the same failure is covered
// through the write seam by objects.TestFullDeviceIsNamedAndLosesNothing.
func TestDiskFullWhileWritingObjects(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root; objects.TestFullDeviceIsNamedAndLosesNothing covers ENOSPC through its write seam")
	}
	s := newScratch(t)
	objDir := filepath.Join(s.store, "objects")
	if err := os.MkdirAll(objDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", objDir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s); objects.TestFullDeviceIsNamedAndLosesNothing covers ENOSPC through its write seam", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", objDir).Run() })

	s.appendRecords(t, "x", "s", "small beginning", 20)
	if code, _, errs := s.ctx(t, "import"); code != 0 {
		t.Fatalf("first import: exit %d: %s", code, errs)
	}
	activePath := filepath.Join(s.store, "refs", "active")
	before, err := os.ReadFile(activePath)
	if err != nil {
		t.Fatal(err)
	}
	s.appendNoise(t, "x", "s", "overflowing", 600) // ~1.2 MiB compressed
	code, _, errs := s.ctx(t, "import", "--format", "json")
	if code == 0 || !strings.Contains(errs, "no space left") {
		t.Fatalf("import on a full device: exit %d, stderr %q; want a failure naming the full device", code, errs)
	}
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(errs), &e); err != nil || !strings.Contains(e.Error.Message, "no space left") {
		t.Fatalf("json error %q: %v", errs, err)
	}
	after, err := os.ReadFile(activePath)
	if err != nil || string(after) != string(before) {
		t.Fatalf("refs/active moved on a failed import: %q -> %q (%v)", before, after, err)
	}
	s.verifyOK(t, "after the failed import")
	if hits(t, s.store, "overflowing") != 0 || hits(t, s.store, "beginning") != 20 {
		t.Fatal("the active generation changed")
	}

	if out, err := exec.Command("mount", "-o", "remount,size=64m", objDir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v: %s", err, out)
	}
	if code, _, errs := s.ctx(t, "import"); code != 0 {
		t.Fatalf("import with space: exit %d: %s", code, errs)
	}
	if st, err := query.ReadStatus(s.store); err != nil || st.Generation == nil || st.Generation.Events != 620 {
		t.Fatalf("after the import with space: %+v, %v; want 620 events", st, err)
	}
	if hits(t, s.store, "overflowing") == 0 {
		t.Fatal("the appended events are not searchable")
	}
	s.verifyOK(t, "after the import with space")
}

// TestSocketRemovedUnderBinaryDaemon removes the socket file of a running
// daemon process: wakes work again and reach the same daemon.
func TestSocketRemovedUnderBinaryDaemon(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 2)
	cmd := s.startDaemon(t)
	if err := os.Remove(store.At(s.store).Socket()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "wakes answered again", func() bool {
		r, err := wake.Wake(s.store, 5*time.Second)
		return err == nil && !r.TimedOut && r.Generation > 0
	})
	st, err := wake.Status(s.store)
	if err != nil || st.PID != cmd.Process.Pid {
		t.Fatalf("status %+v, %v; want the same daemon pid %d", st, err, cmd.Process.Pid)
	}
	s.appendRecords(t, "x", "s", "after the socket quokka", 1)
	r, err := wake.Wake(s.store, time.Minute)
	if err != nil || r.Generation == 0 || hits(t, s.store, "quokka") != 1 { // a watch-driven pass may have published it first
		t.Fatalf("wake after the socket came back: %+v, %v", r, err)
	}
	if err := syscall.Kill(cmd.Process.Pid, 0); err != nil {
		t.Fatalf("daemon died: %v", err)
	}
}
