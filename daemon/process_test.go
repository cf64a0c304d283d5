package daemon_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"ctx/daemon"
	"ctx/maint"
	"ctx/query"
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
	st, err := daemon.WaitReady(s.store, time.Minute)
	if err != nil || st.PID != winner.Process.Pid {
		t.Fatalf("status %+v, %v; want pid %d", st, err, winner.Process.Pid)
	}
	if _, err := daemon.Stop(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(time.Minute):
		t.Fatal("the winning daemon did not stop")
	}
}

// TestKill9MidImport kills the daemon at random points of imports: the
// store must verify every time, no published generation may be lost, and
// the next start must finish the work.
func TestKill9MidImport(t *testing.T) {
	s := newScratch(t)
	rounds, perFile := 5, 1000
	var last uint64
	for round := 0; round < rounds; round++ {
		for f := 0; f < 8; f++ {
			s.appendRecords(t, fmt.Sprintf("p%d", f%3), fmt.Sprintf("s%d", f), fmt.Sprintf("round%d words", round), perFile)
		}
		cmd := s.daemonCmd(t, "run")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(30+rand.IntN(1500)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		rep, err := maint.Verify(s.store)
		if err != nil && !errors.Is(err, context.Canceled) {
			if st, _ := query.ReadStatus(s.store); st != nil && st.Generation == nil {
				continue // killed before the first generation: nothing to verify
			}
			t.Fatalf("round %d: verify: %v", round, err)
		}
		if rep != nil && !rep.OK {
			t.Fatalf("round %d: verify found damage: %+v", round, rep.Damage)
		}
		if st, _ := query.ReadStatus(s.store); st != nil && st.Generation != nil {
			if st.Generation.Number < last {
				t.Fatalf("round %d: generation went back from %d to %d", round, last, st.Generation.Number)
			}
			last = st.Generation.Number
			t.Logf("round %d: killed with generation %d active, %d events", round, last, st.Generation.Events)
		}
	}
	cmd := s.daemonCmd(t, "run")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = daemon.Stop(s.store, time.Minute); _ = cmd.Wait() }()
	if _, err := daemon.WaitReady(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	res, err := daemon.Wake(s.store, 5*time.Minute)
	if err != nil || res.TimedOut {
		t.Fatalf("sync after the kills: %+v, %v", res, err)
	}
	st, err := query.ReadStatus(s.store)
	if err != nil || st.Generation == nil || st.Generation.Events != rounds*8*perFile {
		t.Fatalf("after restart: %+v, %v; want %d events", st.Generation, err, rounds*8*perFile)
	}
	if rep, err := maint.Verify(s.store); err != nil || !rep.OK {
		t.Fatalf("final verify: %+v, %v", rep, err)
	}
}
