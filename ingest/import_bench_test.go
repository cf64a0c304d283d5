package ingest_test

import (
	"context"
	ctxstore "ctx/store"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
)

// BenchmarkImport imports a generated history into a fresh store: the
// whole pipeline (parse, redact, chunk, hash, compress, index, publish,
// vectors). CTX_IMPORT_BENCH_HOME names an existing corpus home (written by
// ctx-corpus) to import instead of generating CTX_IMPORT_BENCH_EVENTS
// events (default 20000, seed 42). Run it under -cpuprofile for the split
// by stage; cpu-µs/event is the process CPU time, steadier than wall time
// on a shared machine. Checkpoints by time are off, so that the work does
// not depend on the machine's speed (a slow import would publish more).
func BenchmarkImport(b *testing.B) {
	home := os.Getenv("CTX_IMPORT_BENCH_HOME")
	if home == "" {
		n := 20000
		if s := os.Getenv("CTX_IMPORT_BENCH_EVENTS"); s != "" {
			var err error
			if n, err = strconv.Atoi(s); err != nil || n <= 0 {
				b.Fatalf("CTX_IMPORT_BENCH_EVENTS=%q", s)
			}
		}
		home = filepath.Join(b.TempDir(), "home")
		if _, err := corpus.Generate(home, corpus.Options{Events: n, Seed: 42}); err != nil {
			b.Fatal(err)
		}
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	var wall, cpu time.Duration
	events := 0
	var stored, indexed int64
	shards := 0
	for i := 0; i < b.N; i++ {
		store := filepath.Join(b.TempDir(), "store")
		start, cpu0 := time.Now(), cpuTime()
		rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: env,
			Sources: automatic(), Version: "bench", CheckpointEvery: -1})
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start)
		cpu += cpuTime() - cpu0
		events += rep.EventsRead
		stored, indexed = dirBytes(ctxstore.At(store).Objects()), dirBytes(ctxstore.At(store).Index())
		shards = len(rep.Generation.Shards)
	}
	b.ReportMetric(float64(events)/wall.Seconds(), "events/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(events), "cpu-µs/event")
	b.ReportMetric(float64(stored)/(1<<20), "objects-MiB")
	b.ReportMetric(float64(indexed)/(1<<20), "index-MiB")
	b.ReportMetric(float64(shards), "shards")
}

func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
