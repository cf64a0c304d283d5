package query

import (
	"context"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

// benchQueries are the searches the store benchmark cycles through: common
// words, identifiers, paths, error text and a command line.
var benchQueries = []string{"flaky test timeout", "parseConfig", "connection refused", "apply_patch",
	"retry backoff", "nil pointer dereference", "go test ./...", "migration rollback",
	"internal/server/handler.go", "fix the failing build"}

// BenchmarkSearchStore measures lexical searches (limit 10) over an existing
// store, reporting the wall time's p50, p95 and p99 over all runs, the
// process CPU time per search, and per query its p50 and p99 (only the
// query $CTX_QUERY_BENCH_QUERY when set). The store is one a user's import
// built, e.g. from a generated corpus:
//
//	ctx-corpus -home H -events 1000000 -seed 11
//	CTX_DAEMON=off HOME=H CTX_HOME=S ctx import
//	CTX_QUERY_BENCH_STORE=S go test ./query/ -run '^$' -bench SearchStore -benchtime 400x
func BenchmarkSearchStore(b *testing.B) {
	r := benchStore(b)
	benchSearches(b, func() *Reader { return r })
}

// BenchmarkSearchStoreCold is BenchmarkSearchStore with nothing kept
// between searches but the process-wide session tree: each search runs on
// a Reader opened for it (its shards opened before the clock starts), so
// it reads and decodes every chunk and counts every document frequency it
// needs, as a one-shot ctx search does.
func BenchmarkSearchStoreCold(b *testing.B) {
	home := os.Getenv("CTX_QUERY_BENCH_STORE")
	if home == "" {
		b.Skip("CTX_QUERY_BENCH_STORE names no store")
	}
	var prev *Reader
	benchSearches(b, func() *Reader {
		if prev != nil {
			prev.Close()
		}
		r, err := Open(home)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.index(); err != nil {
			b.Fatal(err)
		}
		prev = r
		return r
	})
	if prev != nil {
		prev.Close()
	}
}

// benchSearches runs the benchmark queries in turn, each on the Reader
// next returns (called before the clock starts), and reports the figures.
func benchSearches(b *testing.B, next func() *Reader) {
	ctx := context.Background()
	queries := benchQueries
	if q := os.Getenv("CTX_QUERY_BENCH_QUERY"); q != "" { // one query alone, e.g. to profile it
		queries = []string{q}
	}
	for _, q := range queries { // warm the page cache and the shards
		if _, err := next().Search(ctx, SearchRequest{Query: q, Limit: 10}); err != nil {
			b.Fatal(err)
		}
	}
	var all, cpu []time.Duration
	per, perCPU := make(map[string][]time.Duration), make(map[string][]time.Duration)
	for i := 0; b.Loop(); i++ {
		q := queries[i%len(queries)]
		r := next()
		t0, c0 := time.Now(), cpuTime(b)
		_, err := r.Search(ctx, SearchRequest{Query: q, Limit: 10})
		if err != nil {
			b.Fatalf("%q: %v", q, err)
		}
		d := time.Since(t0)
		all = append(all, d)
		c := cpuTime(b) - c0
		cpu = append(cpu, c)
		per[q], perCPU[q] = append(per[q], d), append(perCPU[q], c)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	pct := func(ds []time.Duration, p int) time.Duration {
		slices.Sort(ds)
		return ds[min(len(ds)-1, len(ds)*p/100)]
	}
	b.ReportMetric(ms(pct(all, 50)), "p50-ms")
	b.ReportMetric(ms(pct(all, 95)), "p95-ms")
	b.ReportMetric(ms(pct(all, 99)), "p99-ms")
	// CPU time of the process per search (all its threads): what a search
	// costs whatever else the machine runs.
	b.ReportMetric(ms(pct(cpu, 50)), "cpu-p50-ms")
	b.ReportMetric(ms(pct(cpu, 99)), "cpu-p99-ms")
	for _, q := range queries {
		if ds := per[q]; len(ds) > 0 {
			b.Logf("%-28q p50 %6.1f ms  p99 %6.1f ms  cpu p50 %6.1f ms", q, ms(pct(ds, 50)), ms(pct(ds, 99)),
				ms(pct(perCPU[q], 50)))
		}
	}
}

// cpuTime is the user plus system CPU time of the process so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkExactEventID searches the id of events spread over the store
// (one per session, up to 200) and reports the share found first.
//
//	CTX_QUERY_BENCH_STORE=S go test ./query/ -run '^$' -bench ExactEventID -benchtime 1x
func BenchmarkExactEventID(b *testing.B) {
	r := benchStore(b)
	ctx := context.Background()
	tree, err := r.Tree()
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	step := max(1, len(tree.Sessions)/200)
	for i := 0; i < len(tree.Sessions) && len(ids) < 200; i += step {
		e := tree.Sessions[i]
		p, err := r.ListEvents(ctx, ListRequest{Content: "none", Limit: 4096, Filter: mustFilter(FilterArgs{Sessions: []string{e.Session.String()}})})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Events) > 0 {
			ids = append(ids, p.Events[(i*7919)%len(p.Events)].CtxEventID)
		}
	}
	first := 0
	for b.Loop() {
		first = 0
		for _, id := range ids {
			res, err := r.Search(ctx, SearchRequest{Query: id, Limit: 10})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Results) > 0 && res.Results[0].CtxEventID == id {
				first++
			}
		}
	}
	b.ReportMetric(float64(len(ids)), "ids")
	b.ReportMetric(100*float64(first)/float64(len(ids)), "%first")
}

// benchStore opens the store $CTX_QUERY_BENCH_STORE names, or skips.
func benchStore(b *testing.B) *Reader {
	home := os.Getenv("CTX_QUERY_BENCH_STORE")
	if home == "" {
		b.Skip("CTX_QUERY_BENCH_STORE names no store")
	}
	return openReader(b, home)
}
