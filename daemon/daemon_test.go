package daemon_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"ctx/daemon"
)

func TestAppendBecomesSearchable(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 3)
	runInProcess(t, s.options())
	eventually(t, "first import", func() bool { return hits(t, s.store, "marmalade") > 0 })
	s.appendRecords(t, "x", "s", "appended zanzibar", 1)
	eventually(t, "appended line searchable", func() bool { return hits(t, s.store, "zanzibar") > 0 })
	st, err := daemon.Status(s.store)
	if err != nil || st.PID != os.Getpid() || st.Watching == 0 {
		t.Fatalf("status %+v, %v", st, err)
	}
}

func TestNewProjectDirectoryIsWatched(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 1)
	runInProcess(t, s.options())
	eventually(t, "first import", func() bool { return hits(t, s.store, "marmalade") > 0 })
	s.appendRecords(t, "newproj", "s2", "fresh quokka", 2)
	eventually(t, "new project searchable", func() bool { return hits(t, s.store, "quokka") > 0 })
}

func TestSyncReturnsNewGeneration(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 2)
	opts := s.options()
	opts.Rescan = time.Hour
	opts.Debounce = time.Hour // only the sync may import the append
	runInProcess(t, opts)
	first, err := daemon.Wake(s.store, time.Minute)
	if err != nil || first.TimedOut || first.Generation == 0 {
		t.Fatalf("first wake %+v, %v", first, err)
	}
	s.appendRecords(t, "x", "s", "synced pangolin", 1)
	next, err := daemon.Wake(s.store, time.Minute)
	if err != nil || next.Generation <= first.Generation || !next.Published {
		t.Fatalf("wake after append %+v (before %d), %v", next, first.Generation, err)
	}
	if hits(t, s.store, "pangolin") == 0 {
		t.Fatal("the generation a sync returned does not contain the append")
	}
	same, err := daemon.Wake(s.store, time.Minute)
	if err != nil || same.Generation != next.Generation || same.Published {
		t.Fatalf("wake with nothing new %+v, %v", same, err)
	}
}

func TestSocketRemovedIsRecreated(t *testing.T) {
	s := newScratch(t)
	runInProcess(t, s.options())
	if err := os.Remove(daemon.SocketPath(s.store)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "socket recreated", func() bool {
		_, err := daemon.Status(s.store)
		return err == nil
	})
	fi, err := os.Stat(daemon.SocketPath(s.store))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %v, %v", fi, err)
	}
}

func TestStopAndSecondDaemon(t *testing.T) {
	s := newScratch(t)
	done, runErr := runInProcess(t, s.options())
	err := daemon.Run(t.Context(), s.options())
	if !errors.Is(err, daemon.ErrRunning) || !strings.Contains(err.Error(), "pid") {
		t.Fatalf("second daemon: %v, want ErrRunning naming the pid", err)
	}
	if _, err := daemon.Stop(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		if *runErr != nil {
			t.Fatalf("Run after stop: %v", *runErr)
		}
	case <-time.After(time.Minute):
		t.Fatal("daemon did not stop")
	}
	if _, err := os.Stat(daemon.SocketPath(s.store)); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
	if _, err := daemon.Wake(s.store, time.Second); !errors.Is(err, daemon.ErrNotRunning) {
		t.Fatalf("wake after stop: %v, want ErrNotRunning", err)
	}
	if daemon.Running(s.store) != 0 {
		t.Fatal("lock still names a pid after stop")
	}
}

func TestStaleSocketFileIsReplaced(t *testing.T) {
	s := newScratch(t)
	if err := os.MkdirAll(s.store, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(daemon.SocketPath(s.store), []byte("stale"), 0o600); err != nil {
		t.Fatal(err)
	}
	runInProcess(t, s.options())
}

func TestBadRequestsAreRefused(t *testing.T) {
	s := newScratch(t)
	runInProcess(t, s.options())
	for _, req := range []string{"not json\n", `{"op":"dance"}` + "\n", strings.Repeat("x", 5000)} {
		reply := rawRequest(t, s.store, req)
		if !strings.Contains(reply, `"ok":false`) {
			t.Errorf("request %.20q: reply %q", req, reply)
		}
	}
}

func TestWakeAndAutostartWithoutDaemon(t *testing.T) {
	s := newScratch(t)
	if _, err := daemon.Wake(s.store, time.Second); !errors.Is(err, daemon.ErrNotRunning) {
		t.Fatalf("wake: %v, want ErrNotRunning", err)
	}
	if daemon.Autostart(func(string) string { return "" }, true) {
		t.Fatal("autostart allowed inside a test binary")
	}
	if _, err := daemon.WakeOrStart(s.store, "/nonexistent/ctx", time.Second, false); !errors.Is(err, daemon.ErrAutostartOff) {
		t.Fatalf("WakeOrStart without autostart: %v", err)
	}
}

func TestLogIsWritten(t *testing.T) {
	s := newScratch(t)
	var buf bytes.Buffer
	opts := s.options()
	opts.Log = &buf
	runInProcess(t, opts)
	if !strings.Contains(buf.String(), "daemon started") {
		t.Fatalf("log copy: %q", buf.String())
	}
	data, err := os.ReadFile(daemon.LogPath(s.store))
	if err != nil || !strings.Contains(string(data), "daemon started") {
		t.Fatalf("log file: %q, %v", data, err)
	}
}
