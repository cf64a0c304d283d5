package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/query"
	"ctx/sources"
	"ctx/sources/redact"
	"ctx/sources/reported"
)

// benchRepo makes a repository of files files and commits commits with git
// fast-import (one file changed per commit), and a few uncommitted changes.
func benchRepo(b *testing.B, files, commits int) string {
	b.Helper()
	root := filepath.Join(b.TempDir(), "repo")
	if out, err := exec.Command("git", "init", "-q", "-b", "main", root).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	var in bytes.Buffer
	blob := func(s string) {
		fmt.Fprintf(&in, "data %d\n%s\n", len(s), s)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for c := 0; c < commits; c++ {
		msg := fmt.Sprintf("commit %d: change module %d", c, c%files)
		fmt.Fprintf(&in, "commit refs/heads/main\ncommitter A <a@example.com> %d +0000\n", at+int64(c)*60)
		blob(msg)
		if c == 0 {
			for f := 0; f < files; f++ {
				fmt.Fprintf(&in, "M 100644 inline %s\n", benchPath(f))
				blob(benchFile(f, 0))
			}
			fmt.Fprintf(&in, "M 100644 inline README.md\n")
			blob("# bench\n\nA repository for the get_context benchmark.\n")
			fmt.Fprintf(&in, "M 100644 inline PLAN.md\n")
			blob("# Plan\n\n" + strings.Repeat("- [ ] a step of the plan\n", 200))
			continue
		}
		f := c % files
		fmt.Fprintf(&in, "M 100644 inline %s\n", benchPath(f))
		blob(benchFile(f, c))
	}
	cmd := exec.Command("git", "-C", root, "fast-import", "--quiet")
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v %s", err, out)
	}
	if out, err := exec.Command("git", "-C", root, "checkout", "-q", "-f", "main").CombinedOutput(); err != nil {
		b.Fatalf("checkout: %v %s", err, out)
	}
	for f := 0; f < 5; f++ {
		os.WriteFile(filepath.Join(root, benchPath(f)), []byte(benchFile(f, -1)), 0o644)
	}
	os.WriteFile(filepath.Join(root, "scratch.txt"), []byte("untracked\n"), 0o644)
	// A work tree someone works in has had its index refreshed (their own
	// git status writes it); a fresh checkout's racily clean entries would
	// make every read-only status hash their contents again.
	time.Sleep(1100 * time.Millisecond)
	if out, err := exec.Command("git", "-C", root, "update-index", "-q", "--refresh").CombinedOutput(); err != nil && len(out) > 0 {
		b.Logf("update-index: %s", out)
	}
	return root
}

func benchPath(f int) string { return fmt.Sprintf("pkg%02d/mod%04d.go", f%50, f) }

func benchFile(f, rev int) string {
	return fmt.Sprintf("package pkg%02d\n\n// Module %d, revision %d.\nfunc F%d() int { return %d }\n%s", f%50, f, rev, f, rev,
		strings.Repeat("// filler line of a source file\n", 30))
}

// BenchmarkGetContext: a repository of 5,000 files and 2,000 commits, the
// snapshot built (cold: no cache) and served from the cache.
// cpuTime is the user and system time of the process and its waited-for
// children so far.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

func BenchmarkGetContext(b *testing.B) {
	root := benchRepo(b, 5000, 2000)
	set := DefaultHandoffSettings()
	c := Caller{Door: reported.DoorStdio, Conn: "bench", Root: root}
	b.Run("cold", func(b *testing.B) {
		cold := set
		cold.CacheMaxAge = -1
		h := NewHandoff(HandoffOptions{Home: b.TempDir(), Settings: cold})
		cpu := cpuTime()
		var gitMs int64
		for b.Loop() {
			o, err := h.GetContext(context.Background(), c, "full")
			if err != nil {
				b.Fatal(err)
			}
			for _, k := range o.Meta.Connectors {
				if k.Name == "git" {
					gitMs += k.DurationMs
				}
			}
		}
		// CPU of this process and of its git children per build: what a
		// quiet machine's wall clock approaches; the wall clock of a
		// loaded one is this plus the wait for a core.
		b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(gitMs)/float64(b.N), "git-ms/op")
	})
	b.Run("cached", func(b *testing.B) {
		h := NewHandoff(HandoffOptions{Home: b.TempDir(), Settings: set})
		if _, err := h.GetContext(context.Background(), c, "full"); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			o, err := h.GetContext(context.Background(), c, "full")
			if err != nil || !o.Meta.Cached {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkContinueThread: a thread of 200 saved sessions merged within a
// 50,000-token budget.
func BenchmarkContinueThread(b *testing.B) {
	set := DefaultHandoffSettings()
	set.RatePerMinute = 0
	h := NewHandoff(HandoffOptions{Home: b.TempDir(), Settings: set})
	for i := 0; i < 200; i++ {
		call, _ := json.Marshal(map[string]any{"thread": "bench thread",
			"summary":    fmt.Sprintf("session %d: %s", i, strings.Repeat("worked on the importer and its tests. ", 12)),
			"open_items": []string{"one", "two"}, "key_decisions": []any{map[string]any{"decision": "d", "rationale": "r"}}})
		if _, err := h.SaveSession(Caller{Door: reported.DoorStdio, Conn: fmt.Sprint(i)}, call); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		c, err := h.ContinueThread("bench thread", 50000)
		if err != nil || c.Sessions != 200 {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveSession: a save acknowledged once durable (fsync), with its
// p50 and p95.
func BenchmarkSaveSession(b *testing.B) {
	set := DefaultHandoffSettings()
	set.RatePerMinute = 0
	h := NewHandoff(HandoffOptions{Home: b.TempDir(), Settings: set})
	call := []byte(`{"summary":"saved by the benchmark: the importer handles torn lines","thread":"bench",` +
		`"files_touched":["ingest/file.go"],"open_items":["measure again"]}`)
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := h.SaveSession(Caller{Door: reported.DoorStdio, Conn: fmt.Sprint(i % 50)}, call); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkSaveToSearchable: a save, then the import pass a daemon runs on
// the wake the save sends (every built-in source planned, only the inbox
// changed), then a search that finds it.
func BenchmarkSaveToSearchable(b *testing.B) {
	set := DefaultHandoffSettings()
	set.RatePerMinute = 0
	e := newHandoffEnvB(b, set)
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	env := core.Env{Home: b.TempDir(), Getenv: func(k string) string { return map[string]string{"CTX_HOME": e.store}[k] }}
	i := 0
	for b.Loop() {
		word := fmt.Sprintf("zebra%dquartz", i)
		if _, err := e.h.SaveSession(Caller{Door: reported.DoorStdio, Conn: "c"}, []byte(`{"summary":"found `+word+`"}`)); err != nil {
			b.Fatal(err)
		}
		if _, err := ingest.Run(context.Background(), ingest.Options{Home: e.store, Env: env, Version: "bench",
			Sources: srcs, Redactor: redact.New(), Deferred: true}); err != nil {
			b.Fatal(err)
		}
		found := 0
		err := e.h.opts.Read(context.Background(), func(r *query.Reader) error {
			res, err := r.Search(context.Background(), query.SearchRequest{Query: word, Limit: 1})
			if err == nil {
				found = len(res.Results)
			}
			return err
		})
		if err != nil || found != 1 {
			b.Fatalf("not searchable: %d %v", found, err)
		}
		i++
	}
}
