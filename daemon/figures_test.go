package daemon_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ctx/daemon"
)

// TestFigures measures, for docs/benchmarks.md, the freshness latency
// (append to a watched file → searchable) and the idle CPU and memory of a
// daemon process. It asserts nothing about speed and runs only with
// CTX_DAEMON_FIGURES=1 (CTX_DAEMON_FIGURES_EVENTS sets the store size):
//
//	CTX_DAEMON_FIGURES=1 go test -run Figures -v ./daemon/
func TestFigures(t *testing.T) {
	if os.Getenv("CTX_DAEMON_FIGURES") != "1" {
		t.Skip("set CTX_DAEMON_FIGURES=1")
	}
	events, _ := strconv.Atoi(os.Getenv("CTX_DAEMON_FIGURES_EVENTS"))
	if events <= 0 {
		events = 20000
	}
	s := newScratch(t)
	for i := 0; i < 20; i++ {
		s.appendRecords(t, fmt.Sprintf("p%d", i%5), fmt.Sprintf("s%d", i), "bulk history words", events/20)
	}
	cmd := s.daemonCmd(t, "run")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = daemon.Stop(s.store, time.Minute); _ = cmd.Wait() }()
	if _, err := daemon.WaitReady(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := daemon.Wake(s.store, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	var lat []time.Duration
	for i := 0; i < 30; i++ {
		tok := fmt.Sprintf("fresh%dtoken", i)
		start := time.Now()
		s.appendRecords(t, fmt.Sprintf("p%d", i%5), fmt.Sprintf("s%d", i%20), tok, 1)
		eventually(t, tok, func() bool { return hits(t, s.store, tok) > 0 })
		lat = append(lat, time.Since(start))
		time.Sleep(300 * time.Millisecond)
	}
	slices.Sort(lat)
	t.Logf("freshness over %d appends with %d events stored: p50 %v, p95 %v, max %v", len(lat), events,
		lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*95/100].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	time.Sleep(time.Second)
	pid := cmd.Process.Pid
	c0 := cpuTicks(t, pid)
	time.Sleep(10 * time.Second)
	c1 := cpuTicks(t, pid)
	t.Logf("idle over 10 s: %.2f%% of a core (%d ticks of 10 ms), RSS %s", float64(c1-c0)/10, c1-c0, rss(pid))
}

// cpuTicks is utime+stime of pid in clock ticks (/proc/<pid>/stat).
func cpuTicks(t *testing.T, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

func rss(pid int) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:"))
		}
	}
	return "?"
}
