package daemon_test

import (
	"bytes"
	ctxstore "ctx/store"
	"ctx/wake"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ctx/maint"
	"ctx/objects"
	"ctx/query"
	"ctx/refs"
)

func TestTwoDaemonsAtOnce(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 2)
	var outs [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	for i := range cmds {
		cmds[i] = s.daemonCmd(t, "run")
		cmds[i].Stderr = &outs[i]
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	exited := make(chan int, 2)
	for i, c := range cmds {
		go func() { _ = c.Wait(); exited <- i }()
	}
	var loser int
	select {
	case loser = <-exited:
	case <-time.After(time.Minute):
		t.Fatal("neither daemon exited")
	}
	if code := cmds[loser].ProcessState.ExitCode(); code != 0 || !strings.Contains(outs[loser].String(), "already running") {
		t.Fatalf("losing daemon: exit %d, stderr %q", code, outs[loser].String())
	}
	winner := cmds[1-loser]
	st, err := wake.WaitReady(s.store, time.Minute)
	if err != nil || st.PID != winner.Process.Pid {
		t.Fatalf("status %+v, %v; want pid %d", st, err, winner.Process.Pid)
	}
	if _, err := wake.Stop(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(time.Minute):
		t.Fatal("the winning daemon did not stop")
	}
}

// TestKill9MidImport kills the daemon at random points of imports of a
// growing corpus: the store must verify every time, every generation ever
// published must stay in the reflog with its objects, and the next start
// must finish the work. It runs 4 rounds; CTX_DAEMON_KILL_ROUNDS=50 (or
// CTX_DAEMON_FIGURES=1) runs the long version:
//
//	CTX_DAEMON_KILL_ROUNDS=50 go test -run Kill9 -v ./daemon/
func TestKill9MidImport(t *testing.T) {
	s := newScratch(t)
	rounds, perFile := 4, 400
	if n, _ := strconv.Atoi(os.Getenv("CTX_DAEMON_KILL_ROUNDS")); n > 0 {
		rounds = n
	} else if os.Getenv("CTX_DAEMON_FIGURES") == "1" {
		rounds = 50
	}
	published := map[uint64]objects.ID{}
	killedWithout := 0
	for round := 0; round < rounds; round++ {
		for f := 0; f < 8; f++ {
			s.appendRecords(t, fmt.Sprintf("p%d", f%3), fmt.Sprintf("s%d", f), fmt.Sprintf("round%d words", round), perFile)
		}
		cmd := s.daemonCmd(t, "run")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if round%3 == 1 {
			// Every third start may finish, so the kills also land after
			// publishes and on a store with history, not only on the first
			// import again and again.
			if _, err := wake.WaitReady(s.store, time.Minute); err != nil {
				t.Fatal(err)
			}
			if r, err := wake.Wake(s.store, 5*time.Minute); err != nil || r.TimedOut {
				t.Fatalf("round %d: sync: %+v, %v", round, r, err)
			}
			s.appendRecords(t, "p0", "s0", fmt.Sprintf("round%d late words", round), perFile)
		}
		time.Sleep(time.Duration(30+rand.IntN(1500)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		st, _ := query.ReadStatus(s.store)
		if st == nil || st.Generation == nil {
			killedWithout++
			continue // killed before the first generation: nothing to verify
		}
		rep, err := maint.Verify(s.store)
		if err != nil || !rep.OK {
			t.Fatalf("round %d: verify: %+v, %v", round, rep, err)
		}
		checkPublished(t, s.store, published, round)
		t.Logf("round %d: killed with generation %d active, %d events", round, st.Generation.Number, st.Generation.Events)
	}
	cmd := s.daemonCmd(t, "run")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = wake.Stop(s.store, time.Minute); _ = cmd.Wait() }()
	if _, err := wake.WaitReady(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	res, err := wake.Wake(s.store, 10*time.Minute)
	if err != nil || res.TimedOut {
		t.Fatalf("sync after the kills: %+v, %v", res, err)
	}
	st, err := query.ReadStatus(s.store)
	want := rounds*8*perFile + (rounds+1)/3*perFile
	if err != nil || st.Generation == nil || st.Generation.Events != want {
		t.Fatalf("after restart: %+v, %v; want %d events", st.Generation, err, want)
	}
	if rep, err := maint.Verify(s.store); err != nil || !rep.OK {
		t.Fatalf("final verify: %+v, %v", rep, err)
	}
	checkPublished(t, s.store, published, rounds)
	t.Logf("%d rounds (%d killed before any generation), %d generations published", rounds, killedWithout, len(published))
}

// checkPublished adds the generations now in the reflog (and the active
// one) to published, and fails when one published before is gone or its
// objects are missing, or when a number between 1 and the newest is
// absent.
func checkPublished(t *testing.T, store string, published map[uint64]objects.ID, round int) {
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
	now := map[objects.ID]bool{}
	for _, e := range log {
		now[e.New] = true
	}
	if active, err := rs.Get(refs.Active); err == nil {
		now[active] = true
	}
	numbers := map[uint64]objects.ID{}
	for id := range now {
		g, err := refs.Load(objs, id)
		if err != nil {
			t.Fatalf("round %d: generation %s of the reflog: %v", round, id.Short(), err)
		}
		numbers[g.Number] = id
		published[g.Number] = id
	}
	for n, id := range published {
		if numbers[n] != id {
			t.Fatalf("round %d: generation %d (%s) was published and is gone from the reflog", round, n, id.Short())
		}
	}
	for n := uint64(1); n <= uint64(len(numbers)); n++ {
		if _, ok := numbers[n]; !ok {
			t.Fatalf("round %d: generation %d missing between 1 and %d", round, n, len(numbers))
		}
	}
}
