package daemon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/query"
	"ctx/wake"
)

// TestFigures measures, for docs/benchmarks.md, the daemon's freshness
// (an appended line becoming searchable), its idle CPU and memory, and
// optionally a sustained stream of appends. It asserts nothing about speed
// and runs only with CTX_DAEMON_FIGURES=1:
//
//	CTX_DAEMON_FIGURES=1 go test -run Figures -v ./daemon/
//
// By default it writes CTX_DAEMON_FIGURES_EVENTS (20,000) events itself. To
// measure a large store, point it at a history written once by ctx-corpus
// and a store it may reuse (the daemon imports it on the first run):
//
//	ctx-corpus -home H -events 1000000 -seed 11
//	CTX_DAEMON_FIGURES=1 CTX_DAEMON_FIGURES_HOME=H CTX_DAEMON_FIGURES_STORE=S \
//	  CTX_DAEMON_FIGURES_STREAM=5m go test -run Figures -v -timeout 2h ./daemon/
//
// The appends go to sessions under a figures-only project directory, which
// is removed at the end (their events stay in the reused store).
func TestFigures(t *testing.T) {
	if os.Getenv("CTX_DAEMON_FIGURES") != "1" {
		t.Skip("set CTX_DAEMON_FIGURES=1")
	}
	s := newScratch(t)
	if h := os.Getenv("CTX_DAEMON_FIGURES_HOME"); h != "" {
		s.home = h
	} else {
		events, _ := strconv.Atoi(os.Getenv("CTX_DAEMON_FIGURES_EVENTS"))
		if events <= 0 {
			events = 20000
		}
		for i := 0; i < 20; i++ {
			s.appendRecords(t, fmt.Sprintf("p%d", i%5), fmt.Sprintf("s%d", i), "bulk history words", events/20)
		}
	}
	if st := os.Getenv("CTX_DAEMON_FIGURES_STORE"); st != "" {
		s.store = st
	}
	run := time.Now().UnixNano()
	project := func(i int) string { return fmt.Sprintf("figures-%d-%d", run, i%4) }
	t.Cleanup(func() {
		for i := 0; i < 4; i++ {
			os.RemoveAll(filepath.Dir(s.sessionFile(project(i), "x")))
		}
	})

	cmd := s.daemonCmd(t, "run")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = wake.Stop(s.store, time.Minute); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	if _, err := wake.WaitReady(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := wake.Wake(s.store, 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	st, err := query.ReadStatus(s.store)
	if err != nil || st.Generation == nil {
		t.Fatalf("status: %v", err)
	}
	t.Logf("startup pass: %v (published %v), %d events in the store, daemon %s", time.Since(start).Round(time.Second),
		res.Published, st.Generation.Events, memory(pid))

	// 20 sessions, written once before timing so their directories exist.
	for i := 0; i < 20; i++ {
		s.appendRecords(t, project(i), fmt.Sprintf("f%d", i), "figures session opening", 1)
	}
	eventually(t, "figures sessions", func() bool { return hits(t, s.store, "opening") >= 20 })

	var lat []time.Duration
	for i := 0; i < 30; i++ {
		tok := fmt.Sprintf("fresh%dtok%d", i, run%100000)
		start := time.Now()
		s.appendRecords(t, project(i), fmt.Sprintf("f%d", i%20), tok, 1)
		eventually(t, tok, func() bool { return hits(t, s.store, tok) > 0 })
		lat = append(lat, time.Since(start))
		time.Sleep(300 * time.Millisecond)
	}
	t.Logf("freshness (write → the daemon publishes → an in-process search finds it), %d appends: %s", len(lat), quantiles(lat))

	var user []time.Duration
	for i := 0; i < 10; i++ {
		tok := fmt.Sprintf("wake%dtok%d", i, run%100000)
		start := time.Now()
		s.appendRecords(t, project(i), fmt.Sprintf("f%d", i%20), tok, 1)
		search := s.daemonCmd(t)
		search.Args = []string{search.Path, "search", tok, "--format", "json"}
		out, err := search.Output()
		if err != nil || !strings.Contains(string(out), tok) {
			t.Logf("ctx search right after the write did not find %s (%v)", tok, err)
			continue
		}
		user = append(user, time.Since(start))
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("freshness through ctx search (its wake, then the search), found %d of 10: %s", len(user), quantiles(user))

	time.Sleep(5 * time.Second) // let idle-time maintenance finish
	c0 := cpuTicks(t, pid)
	time.Sleep(time.Minute)
	c1 := cpuTicks(t, pid)
	t.Logf("idle over 60 s: %.2f%% of a core (%d ticks of 10 ms), %s", float64(c1-c0)/60, c1-c0, memory(pid))

	if d, err := time.ParseDuration(os.Getenv("CTX_DAEMON_FIGURES_STREAM")); err == nil && d > 0 {
		stream(t, s, pid, d, project, run)
	}
}

// stream appends 200 events/s across 20 sessions for d: every 100 ms one
// record to each session; every 2 s one record carries a token whose
// freshness is timed. RSS is sampled every 10 s.
func stream(t *testing.T, s *scratch, pid int, d time.Duration, project func(int) string, run int64) {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	c0, t0 := cpuTicks(t, pid), time.Now()
	var rss []string
	tick := time.NewTicker(100 * time.Millisecond)
	sample := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	defer sample.Stop()
	n := 0
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-sample.C:
			rss = append(rss, vm(pid, "VmRSS"))
		case <-tick.C:
			n++
			for i := 0; i < 20; i++ {
				text := "stream filler words"
				probe := i == 0 && n%20 == 0
				if probe {
					text = fmt.Sprintf("stream%dtok%d", n, run%100000)
				}
				start := time.Now()
				s.appendRecords(t, project(i), fmt.Sprintf("f%d", i), text, 1)
				if probe {
					wg.Add(1)
					go func(tok string) {
						defer wg.Done()
						for hits(t, s.store, tok) == 0 {
							if time.Since(start) > 2*time.Minute {
								t.Errorf("%s not searchable after 2 minutes", tok)
								return
							}
							time.Sleep(50 * time.Millisecond)
						}
						mu.Lock()
						lat = append(lat, time.Since(start))
						mu.Unlock()
					}(text)
				}
			}
		}
	}
	wg.Wait()
	c1 := cpuTicks(t, pid)
	t.Logf("stream of %d events (20 sessions, %.0f events/s) over %v: freshness %s; daemon CPU %.0f%% of a core",
		n*20, float64(n*20)/d.Seconds(), d, quantiles(lat), float64(c1-c0)/time.Since(t0).Seconds())
	t.Logf("stream RSS every 10 s: %s; then %s", strings.Join(rss, ", "), memory(pid))
}

func quantiles(d []time.Duration) string {
	if len(d) == 0 {
		return "no samples"
	}
	slices.Sort(d)
	r := func(x time.Duration) time.Duration { return x.Round(time.Millisecond) }
	return fmt.Sprintf("p50 %v, p95 %v, max %v", r(d[len(d)/2]), r(d[min(len(d)-1, len(d)*95/100)]), r(d[len(d)-1]))
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

// vm returns one field of /proc/<pid>/status (VmRSS, VmHWM).
func vm(pid int, field string) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, field+":") {
			return strings.TrimSpace(strings.TrimPrefix(l, field+":"))
		}
	}
	return "?"
}

func memory(pid int) string {
	return fmt.Sprintf("RSS %s (peak %s)", vm(pid, "VmRSS"), vm(pid, "VmHWM"))
}
