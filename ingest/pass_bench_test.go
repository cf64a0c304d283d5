package ingest_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
)

// BenchmarkAppendPass measures the daemon's pass after an agent writes:
// one Claude Code session of an imported history grows by a few events,
// then an import over every source, run as the daemon runs it (Deferred,
// the state of the pass before kept, the watcher naming the session),
// publishes them; the merge the daemon runs beside its passes follows,
// timed apart (merge-p50-ms), and so is the vector build it runs when idle
// (vectors-p50-ms). It reports the tombstones the active generation holds
// at the end. CTX_APPEND_BENCH_HOME names a
// corpus home (written by ctx-corpus) and CTX_APPEND_BENCH_STORE a store
// imported from it; both are written to (generations are published, and
// the session grows, cut back to its size at the end), so give it copies.
// Without them a 20,000-event corpus is generated and imported first.
//
//	CTX_APPEND_BENCH_HOME=H CTX_APPEND_BENCH_STORE=S go test ./ingest/ -run '^$' -bench AppendPass -benchtime 40x
func BenchmarkAppendPass(b *testing.B) {
	home, store := os.Getenv("CTX_APPEND_BENCH_HOME"), os.Getenv("CTX_APPEND_BENCH_STORE")
	if (home == "") != (store == "") {
		b.Fatal("set both CTX_APPEND_BENCH_HOME and CTX_APPEND_BENCH_STORE, or neither")
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	var named func(string) bool // what the daemon's watcher says: the grown session alone
	opts := func() ingest.Options {
		return ingest.Options{Home: store, Env: env, Sources: automatic(), Version: "bench", Deferred: true, Named: named}
	}
	ctx := context.Background()
	if home == "" {
		home, store = filepath.Join(b.TempDir(), "home"), filepath.Join(b.TempDir(), "store")
		env.Home = home
		if _, err := corpus.Generate(home, corpus.Options{Events: 20000, Seed: 42}); err != nil {
			b.Fatal(err)
		}
		if _, err := ingest.Run(ctx, opts()); err != nil {
			b.Fatal(err)
		}
	}
	path := largestClaudeSession(b, home)
	if fi, err := os.Stat(path); err == nil { // the next run appends to the same bytes
		b.Cleanup(func() { _ = os.Truncate(path, fi.Size()) })
	}
	if _, err := ingest.Run(ctx, opts()); err != nil { // what the daemon's first pass loads
		b.Fatal(err)
	}
	named = func(p string) bool { return p == path }
	var walls, cpus, vwalls, vcpus, merges []time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if _, err := corpus.Append(path, 4, int64(i)); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		rep, err := ingest.Run(ctx, opts())
		if err != nil {
			b.Fatal(err)
		}
		walls, cpus = append(walls, time.Since(t0)), append(cpus, cpuTime()-c0)
		b.StopTimer()
		if !rep.Published || rep.EventsIndexed == 0 {
			b.Fatalf("pass %d published %v, indexed %d events", i, rep.Published, rep.EventsIndexed)
		}
		t2 := time.Now()
		if _, err := ingest.Merge(ctx, opts()); err != nil {
			b.Fatal(err)
		}
		merges = append(merges, time.Since(t2))
		t1, c1 := time.Now(), cpuTime()
		if _, err := ingest.BuildVectors(ctx, opts()); err != nil {
			b.Fatal(err)
		}
		vwalls, vcpus = append(vwalls, time.Since(t1)), append(vcpus, cpuTime()-c1)
		b.StartTimer()
	}
	ms := func(ds []time.Duration, p int) float64 {
		slices.Sort(ds)
		return float64(ds[min(len(ds)-1, len(ds)*p/100)].Microseconds()) / 1000
	}
	b.ReportMetric(ms(walls, 50), "p50-ms")
	b.ReportMetric(ms(walls, 95), "p95-ms")
	b.ReportMetric(ms(cpus, 50), "cpu-p50-ms")
	b.ReportMetric(ms(vwalls, 50), "vectors-p50-ms")
	b.ReportMetric(ms(vcpus, 50), "vectors-cpu-p50-ms")
	b.ReportMetric(ms(merges, 50), "merge-p50-ms")
	b.ReportMetric(ms(merges, 95), "merge-p95-ms")
	b.ReportMetric(float64(len(activeTombstones(b, store))), "tombstones")
}

// largestClaudeSession returns the largest Claude Code session file of
// the corpus home.
func largestClaudeSession(b testing.TB, home string) string {
	return largestSession(b, filepath.Join(home, ".claude", "projects"))
}

// largestSession returns the largest transcript under dir that is not a
// subagent's.
func largestSession(b testing.TB, dir string) string {
	var best string
	var size int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || strings.Contains(p, "subagents") {
			return err
		}
		if fi, err := d.Info(); err == nil && fi.Size() > size {
			best, size = p, fi.Size()
		}
		return nil
	})
	if err != nil || best == "" {
		b.Fatalf("no session under %s: %v", dir, err)
	}
	return best
}
