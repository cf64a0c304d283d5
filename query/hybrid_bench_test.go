package query

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/sources"
)

// BenchmarkSearchModes imports a generated corpus (CTX_QUERY_BENCH_EVENTS
// events, 20,000 by default) with vectors of the built-in embedder and
// measures one in-process search per mode over eight queries, reporting the
// median and the 95th percentile.
//
//	CTX_QUERY_BENCH_EVENTS=200000 go test ./query/ -run '^$' -bench SearchModes -benchtime 400x
func BenchmarkSearchModes(b *testing.B) {
	events := 20_000
	if s := os.Getenv("CTX_QUERY_BENCH_EVENTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("CTX_QUERY_BENCH_EVENTS=%q", s)
		}
		events = n
	}
	root := b.TempDir()
	home := filepath.Join(root, "home")
	if _, err := corpus.Generate(home, corpus.Options{Events: events, Seed: 42}); err != nil {
		b.Fatal(err)
	}
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	store := filepath.Join(root, "store")
	start := time.Now()
	rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Version: "bench", Sources: srcs,
		Env: core.Env{Home: home, Getenv: func(string) string { return "" }}})
	if err != nil || rep.VectorsErr != nil || rep.Vectors == nil {
		b.Fatalf("import: %v %v", err, rep.VectorsErr)
	}
	b.Logf("imported %d events in %s; %d vectors embedded in %s", rep.EventsRead, time.Since(start).Round(time.Millisecond),
		rep.Vectors.Vectors, rep.Vectors.Took.Round(time.Millisecond))
	r := openReader(b, store)
	queries := []string{"flaky test timeout", "parseConfig", "connection refused", "apply_patch", "retry backoff",
		"nil pointer dereference", "go test ./...", "migration rollback"}
	for _, mode := range []string{ModeLexical, ModeSemantic, ModeHybrid} {
		b.Run(mode, func(b *testing.B) {
			var times []time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				res, err := r.Search(context.Background(), SearchRequest{Query: queries[i%len(queries)], Mode: mode, Limit: 10})
				if err != nil || res.Metadata.Mode != mode {
					b.Fatalf("%v %+v", err, res)
				}
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}
