package daemon_test

import (
	"bytes"
	"context"
	"ctx/store"
	ctxstore "ctx/store"
	"ctx/wake"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/daemon"
	"ctx/ingest"
	"ctx/maint"
	"ctx/objects"
	"ctx/refs"
)

func TestAppendBecomesSearchable(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 3)
	runInProcess(t, s.options())
	eventually(t, "first import", func() bool { return hits(t, s.store, "marmalade") > 0 })
	s.appendRecords(t, "x", "s", "appended zanzibar", 1)
	eventually(t, "appended line searchable", func() bool { return hits(t, s.store, "zanzibar") > 0 })
	st, err := wake.Status(s.store)
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
	first, err := wake.Wake(s.store, time.Minute)
	if err != nil || first.TimedOut || first.Generation == 0 {
		t.Fatalf("first wake %+v, %v", first, err)
	}
	s.appendRecords(t, "x", "s", "synced pangolin", 1)
	next, err := wake.Wake(s.store, time.Minute)
	if err != nil || next.Generation <= first.Generation || !next.Published {
		t.Fatalf("wake after append %+v (before %d), %v", next, first.Generation, err)
	}
	if hits(t, s.store, "pangolin") == 0 {
		t.Fatal("the generation a sync returned does not contain the append")
	}
	same, err := wake.Wake(s.store, time.Minute)
	if err != nil || same.Generation != next.Generation || same.Published {
		t.Fatalf("wake with nothing new %+v, %v", same, err)
	}
}

func TestSocketRemovedIsRecreated(t *testing.T) {
	s := newScratch(t)
	runInProcess(t, s.options())
	if err := os.Remove(store.At(s.store).Socket()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "socket recreated", func() bool {
		_, err := wake.Status(s.store)
		return err == nil
	})
	fi, err := os.Stat(store.At(s.store).Socket())
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
	if _, err := wake.Stop(s.store, time.Minute); err != nil {
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
	if _, err := os.Stat(store.At(s.store).Socket()); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
	if _, err := wake.Wake(s.store, time.Second); !errors.Is(err, wake.ErrNotRunning) {
		t.Fatalf("wake after stop: %v, want ErrNotRunning", err)
	}
	if wake.Running(s.store) != 0 {
		t.Fatal("lock still names a pid after stop")
	}
}

func TestStaleSocketFileIsReplaced(t *testing.T) {
	s := newScratch(t)
	if err := os.MkdirAll(s.store, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store.At(s.store).Socket(), []byte("stale"), 0o600); err != nil {
		t.Fatal(err)
	}
	runInProcess(t, s.options())
}

func TestBadRequestsAreRefused(t *testing.T) {
	s := newScratch(t)
	runInProcess(t, s.options())
	for _, req := range []string{"not json\n", `{"op":"dance"}` + "\n", strings.Repeat("x", daemon.MaxRequest+10)} {
		reply := rawRequest(t, s.store, req)
		if !strings.Contains(reply, `"ok":false`) {
			t.Errorf("request %.20q: reply %q", req, reply)
		}
	}
}

func TestWakeAndAutostartWithoutDaemon(t *testing.T) {
	s := newScratch(t)
	if _, err := wake.Wake(s.store, time.Second); !errors.Is(err, wake.ErrNotRunning) {
		t.Fatalf("wake: %v, want ErrNotRunning", err)
	}
	if wake.Autostart(func(string) string { return "" }, true) {
		t.Fatal("autostart allowed inside a test binary")
	}
	if _, err := wake.WakeOrStart(s.store, "/nonexistent/ctx", time.Second, false); !errors.Is(err, wake.ErrAutostartOff) {
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
	data, err := os.ReadFile(store.At(s.store).DaemonLog())
	if err != nil || !strings.Contains(string(data), "daemon started") {
		t.Fatalf("log file: %q, %v", data, err)
	}
}

// TestLagIsTheOldestUnpublishedChange checks lag_seconds against the times
// the test knows: it counts from the write (not from when a pass starts),
// it is 0 once published, a failed pass keeps it, and a change the watches
// did not time counts from the file's modification time.
func TestLagIsTheOldestUnpublishedChange(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 2)
	opts := s.options()
	opts.Rescan = time.Hour
	opts.Debounce = time.Hour // only syncs import
	runInProcess(t, opts)
	if r, err := wake.Wake(s.store, time.Minute); err != nil || r.Generation == 0 {
		t.Fatalf("first sync %+v, %v", r, err)
	}
	if st := wake.State(s.store); st.LagSeconds != 0 {
		t.Fatalf("lag %v after the first sync, want 0", st.LagSeconds)
	}

	written := time.Now()
	s.appendRecords(t, "x", "s", "appended", 1)
	var seen time.Time
	// seen is taken once the status has answered: the change was noted
	// before it, never after.
	eventually(t, "the append noted", func() bool { ok := wake.State(s.store).LagSeconds > 0; seen = time.Now(); return ok })
	time.Sleep(300 * time.Millisecond)
	before := time.Now()
	lag := wake.State(s.store).LagSeconds
	after := time.Now()
	if lo, hi := before.Sub(seen).Seconds(), after.Sub(written).Seconds(); lag < lo || lag > hi {
		t.Fatalf("lag %.3fs, want between %.3fs and %.3fs", lag, lo, hi)
	}
	if _, err := wake.Wake(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	if st := wake.State(s.store); st.LagSeconds != 0 {
		t.Fatalf("lag %v after the append was published, want 0", st.LagSeconds)
	}

	// A pass that fails: the index directory is replaced by a file. The new
	// session's file says it changed an hour ago.
	index := filepath.Join(s.store, "index")
	if err := os.Rename(index, index+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s.appendRecords(t, "x", "old", "restored from a backup", 1)
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(s.sessionFile("x", "old"), hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	if _, err := wake.Wake(s.store, time.Minute); err == nil {
		t.Fatal("sync with an unusable index succeeded")
	}
	if lag := wake.State(s.store).LagSeconds; lag < 3600 || lag > 3600+60 {
		t.Fatalf("lag %.1fs after a failed pass over a file changed an hour ago, want about 3600", lag)
	}
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(index+".away", index); err != nil {
		t.Fatal(err)
	}
	if r, err := wake.Wake(s.store, time.Minute); err != nil || !r.Published {
		t.Fatalf("sync after the repair %+v, %v", r, err)
	}
	if st := wake.State(s.store); st.LagSeconds != 0 {
		t.Fatalf("lag %v once everything is published, want 0", st.LagSeconds)
	}
}

// TestMergingIsOffThePassPath: the daemon's passes publish without merging
// shards (so a wake never waits for a merge), and the merge follows beside
// them as a generation of its own over the same history.
func TestMergingIsOffThePassPath(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 3)
	opts := s.options()
	opts.Rescan = time.Hour
	opts.Debounce = time.Hour // only syncs import
	runInProcess(t, opts)
	for i := 0; i < ingest.MaxSmallShards+4; i++ {
		s.appendRecords(t, "x", fmt.Sprintf("s%d", i), fmt.Sprintf("increment%d tapir", i), 2)
		// The sync's pass publishes the append, unless a pass that began
		// before the sync (the startup pass) already did.
		if r, err := wake.Wake(s.store, time.Minute); err != nil || r.Generation == 0 {
			t.Fatalf("sync %d: %+v, %v", i, r, err)
		}
	}
	var gens []*refs.Generation
	var msgs []string
	unmerged, merges := false, 0
	eventually(t, "merges beside the passes", func() bool {
		gens, msgs = reflogGenerations(t, s.store)
		unmerged, merges = false, 0
		for i, g := range gens {
			switch {
			case strings.HasPrefix(msgs[i], "maintenance:"):
				merges++
			case len(g.Shards) > ingest.MaxSmallShards:
				unmerged = true
			}
		}
		return merges > 0 && len(gens[len(gens)-1].Shards) <= ingest.MaxSmallShards
	})
	if !unmerged {
		t.Fatal("no pass published more than MaxSmallShards shards: the passes merged inline")
	}
	// Status names the newest generation the daemon published, the merge's
	// included (the passes are all done: nothing else publishes).
	eventually(t, "status names the merged generation", func() bool {
		gens, _ = reflogGenerations(t, s.store)
		return wake.State(s.store).LastGeneration == gens[len(gens)-1].Number
	})
	if n := hits(t, s.store, "tapir"); n != 2*(ingest.MaxSmallShards+4) {
		t.Fatalf("tapir: %d hits after the merge, want %d", n, 2*(ingest.MaxSmallShards+4))
	}
}

// reflogGenerations loads the generations of the store's reflog, oldest
// first, with their log messages.
func reflogGenerations(t *testing.T, store string) ([]*refs.Generation, []string) {
	t.Helper()
	rs, err := refs.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	log, err := rs.Log(refs.Active)
	if err != nil {
		t.Fatal(err)
	}
	var gens []*refs.Generation
	var msgs []string
	for _, e := range log {
		g, err := refs.Load(objs, e.New)
		if err != nil {
			t.Fatal(err)
		}
		gens, msgs = append(gens, g), append(msgs, e.Message)
	}
	return gens, msgs
}

// TestUnwatchedFileGrowthIsSeen: a transcript that appeared in a directory
// the daemon does not watch (a subagent's, under a session directory that
// held no transcript, where its creation raised no event) is statted on
// every pass, so that the next pass anything wakes imports its growth,
// not the rescan.
func TestUnwatchedFileGrowthIsSeen(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 2)
	session := filepath.Join(s.home, ".claude", "projects", "x", "s")
	if err := os.MkdirAll(session, 0o700); err != nil {
		t.Fatal(err)
	}
	opts := s.options()
	opts.Rescan = time.Hour // only events wake a pass
	runInProcess(t, opts)
	eventually(t, "first import", func() bool { return hits(t, s.store, "marmalade") > 0 })
	agent := filepath.Join(session, "subagents", "agent-a1.jsonl")
	appendRecords(t, agent, "x", "s", "subagent wombat", 1)
	s.appendRecords(t, "x", "s", "first wake", 1) // an event on a watched transcript
	eventually(t, "the subagent's transcript", func() bool { return hits(t, s.store, "wombat") > 0 })
	appendRecords(t, agent, "x", "s", "subagent numbat", 1)
	s.appendRecords(t, "x", "s", "second wake", 1)
	eventually(t, "the second wake", func() bool { return hits(t, s.store, "second") > 0 })
	if hits(t, s.store, "numbat") == 0 {
		t.Fatal("the pass the second wake ran passed over the subagent's growth")
	}
}

// TestDaemonCollects: between passes the daemon runs gc, which removes an
// object nothing reaches and an index directory no generation lists that
// is older than a merge's could be, and leaves search working.
func TestDaemonCollects(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 3)
	opts := s.options()
	opts.Collect = time.Millisecond
	runInProcess(t, opts)
	eventually(t, "first import", func() bool { return hits(t, s.store, "marmalade") > 0 })
	// An object nothing reaches, written as every writer writes: holding
	// the writer lock (gc cleans the temporary files of writes under it).
	w, err := ctxstore.OpenWriter(context.Background(), s.store, func() {})
	if err != nil {
		t.Fatal(err)
	}
	objs := w.Objects
	loose, err := objs.Put([]byte(`{"kind":"chunk","note":"reached by nothing"}`))
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(ctxstore.At(s.store).Index(), "0123456789abcdef0123456789abcdef")
	if err := os.Mkdir(stray, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stray, old, old); err != nil {
		t.Fatal(err)
	}
	s.appendRecords(t, "x", "s", "appended zanzibar", 1)
	eventually(t, "appended line searchable", func() bool { return hits(t, s.store, "zanzibar") > 0 })
	eventually(t, "gc after the pass", func() bool {
		_, err := os.Stat(stray)
		return os.IsNotExist(err) && !objs.Has(loose)
	})
	if hits(t, s.store, "zanzibar") == 0 || hits(t, s.store, "marmalade") == 0 {
		t.Fatal("search after the daemon's gc lost events")
	}
	log, _ := os.ReadFile(filepath.Join(s.store, "logs", "daemon.log"))
	if !bytes.Contains(log, []byte("gc: ")) {
		t.Fatalf("the daemon's log says nothing of its gc:\n%s", log)
	}
	st, err := wake.Status(s.store)
	if err != nil || st.GC == nil || st.GC.Error != "" || st.GC.KeptGenerations == 0 || st.GC.At.IsZero() {
		t.Fatalf("status of the daemon's last gc: %+v %v", st.GC, err)
	}
}

// TestDaemonPurgesForgotten: a session forgotten while the daemon runs is
// gone from the index and the objects after the daemon's next gc, as after
// ctx gc by hand; the other session stays searchable.
func TestDaemonPurgesForgotten(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "gone", "the quokka secret", 3)
	s.appendRecords(t, "y", "kept", "the wombat plan", 3)
	opts := s.options()
	opts.Collect = time.Millisecond
	runInProcess(t, opts)
	eventually(t, "first import", func() bool { return hits(t, s.store, "quokka") > 0 && hits(t, s.store, "wombat") > 0 })
	if _, err := ingest.Forget(context.Background(), ingest.Options{Home: s.store, Version: "test", Busy: func() {}},
		ingest.ForgetRequest{Workspace: "/work/x"}); err != nil {
		t.Fatal(err)
	}
	if v, err := maint.Verify(s.store); err != nil || v.Forgotten.Sessions != 1 || v.Forgotten.Clean() {
		t.Fatalf("verify after the forget, before a gc: %+v %v", v.Forgotten, err)
	}
	s.appendRecords(t, "y", "kept", "the wombat plan, later", 1) // a pass, then maintenance and a gc
	eventually(t, "the forgotten session purged", func() bool {
		v, err := maint.Verify(s.store)
		return err == nil && v.OK && v.Forgotten.Sessions == 1 && v.Forgotten.Clean()
	})
	if hits(t, s.store, "quokka") != 0 || hits(t, s.store, "wombat") == 0 {
		t.Fatal("after the purge: the forgotten session found, or the other one lost")
	}
	// The status holds the last gc only, which may be a later one that had
	// nothing to purge; the log keeps every one (written once the gc ends).
	eventually(t, "the purge in the daemon's log", func() bool {
		log, _ := os.ReadFile(filepath.Join(s.store, "logs", "daemon.log"))
		return bytes.Contains(log, []byte("re-indexed without forgotten sessions"))
	})
}
