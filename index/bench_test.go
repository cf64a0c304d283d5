package index

import (
	"context"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"ctx/core"
)

// benchDocs is the corpus size of the benchmarks; CTX_INDEX_BENCH_DOCS
// overrides it (the study's figures are for 200000).
func benchDocs(b *testing.B) int {
	b.Helper()
	if s := os.Getenv("CTX_INDEX_BENCH_DOCS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("CTX_INDEX_BENCH_DOCS=%q", s)
		}
		return n
	}
	return 20000
}

// BenchmarkBuild indexes a streamed synthetic corpus with the default
// options. The generator runs concurrently; its cost (about 20 µs
// a doc) is included. cpu-µs/doc is process CPU time, a steadier figure
// than docs/s on a shared machine.
func BenchmarkBuild(b *testing.B) {
	n := benchDocs(b)
	var total, cpu time.Duration
	var bytes int64
	for i := 0; i < b.N; i++ {
		root := b.TempDir()
		docs := newCorpus(42).stream(n)
		start, cpu0 := time.Now(), cpuTime()
		metas, err := BuildShards(context.Background(), root, docs, BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		cpu += cpuTime() - cpu0
		bytes = 0
		for _, m := range metas {
			bytes += m.Bytes
		}
	}
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "docs/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(n*b.N), "cpu-µs/doc")
	b.ReportMetric(float64(bytes)/(1<<20), "MiB")
}

// cpuTime returns the CPU time (user and system) used by the process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSearch runs queries over shards built from the synthetic corpus
// and reports the median latency next to the mean ns/op.
func BenchmarkSearch(b *testing.B) {
	n := benchDocs(b)
	root := b.TempDir()
	var docs []Doc
	for d := range newCorpus(42).stream(n) {
		docs = append(docs, d)
	}
	metas, err := BuildShards(context.Background(), root, feed(docs), BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	// The events are served from memory: the figures leave out reading
	// chunks from the store (the whole-process figures include it).
	r, err := Open(root, names(metas), eventsOf(docs))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	c := newCorpus(42) // the indexed pools, drawn in another order
	queries := make([]string, 300)
	for i := range queries {
		queries[i] = c.words.draw() + " " + c.idents.draw()
	}
	probe, ok, err := firstHit(r)
	if err != nil || !ok {
		b.Fatalf("no probe hit: %v", err)
	}
	cases := []struct {
		name string
		q    func(i int) Query
	}{
		{"match", func(i int) Query { return Query{Text: queries[i%len(queries)], Limit: 10} }},
		{"match_calls", func(i int) Query { return Query{Text: queries[i%len(queries)], Scope: core.ScopeCalls, Limit: 10} }},
		{"match_filtered", func(i int) Query {
			return Query{Text: queries[i%len(queries)], Limit: 10, Filter: core.Filter{Workspace: probe.Workspace, PrimaryOnly: true}}
		}},
		{"event_id", func(int) Query { return Query{Text: probe.EventID.String(), Limit: 10} }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if _, err := r.Search(context.Background(), tc.q(i)); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
		})
	}
	b.Run("lookup", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, ok, err := r.Lookup(probe.EventID); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
	})
}

func firstHit(r *Reader) (core.Hit, bool, error) {
	res, err := r.Search(context.Background(), Query{Text: "error", Limit: 1})
	if err != nil || len(res.Hits) == 0 {
		return core.Hit{}, false, err
	}
	return res.Hits[0], true, nil
}

// BenchmarkAnalyzer compares the code-aware analyzer with the standard one
// on corpus text.
func BenchmarkAnalyzer(b *testing.B) {
	var texts [][]byte
	var size int64
	for d := range newCorpus(42).stream(2000) {
		texts = append(texts, []byte(d.Event.Text))
		size += int64(len(d.Event.Text))
	}
	for _, name := range []string{CodeAnalyzer, QueryAnalyzer} {
		a := newMapping().AnalyzerNamed(name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size / int64(len(texts)))
			for i := 0; i < b.N; i++ {
				a.Analyze(texts[i%len(texts)])
			}
		})
	}
}

// BenchmarkGroupTerms measures what a group's build spends analyzing each
// event's text (groupTerms) on corpus text.
func BenchmarkGroupTerms(b *testing.B) {
	var texts []string
	var size int64
	for d := range newCorpus(42).stream(4000) {
		texts = append(texts, eventText(d.Event))
		size += int64(len(texts[len(texts)-1]))
	}
	sc := &termScratch{}
	var buf []byte
	b.SetBytes(size / int64(len(texts)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%64 == 0 {
			buf = buf[:0]
		}
		buf, _ = groupTerms(buf, texts[i%len(texts)], sc)
	}
}
