package semantic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/objects"
)

var benchWords = strings.Fields(`the a to of and in is it for that on with this be as not are by at from
error config parse index store build test failed timeout request response server client session event
query search shard batch commit branch merge file path line code function method type struct value
field table cache lock token user agent tool call output command exit status retry panic debug trace
log warning fix bug issue review refactor rename move delete create update read write open close start
stop run deploy release version module package import export handler router middleware context
deadline cancel channel goroutine mutex atomic buffer stream reader writer encoder decoder schema
migration database transaction rollback snapshot generation object blob hash chunk tree ref remote`)

// benchText returns a message of about 540 bytes: prose with identifiers
// in several case styles, a path and a number, like the index benchmarks.
func benchText(rng *rand.Rand) string {
	var b strings.Builder
	for b.Len() < 540 {
		w := benchWords[rng.IntN(len(benchWords))]
		switch rng.IntN(12) {
		case 0:
			w = w + strings.ToUpper(benchWords[rng.IntN(len(benchWords))][:1]) + benchWords[rng.IntN(len(benchWords))][1:]
		case 1:
			w = w + "_" + benchWords[rng.IntN(len(benchWords))]
		case 2:
			w = "internal/" + w + "/" + benchWords[rng.IntN(len(benchWords))] + ".go"
		case 3:
			w = strconv.Itoa(rng.IntN(100000))
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	return b.String()
}

// BenchmarkEmbed measures the built-in embedder on one goroutine.
//
//	go test ./semantic/ -run '^$' -bench Embed -benchtime 3s
func BenchmarkEmbed(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	texts := make([]string, 4096)
	size := 0
	for i := range texts {
		texts[i] = benchText(rng)
		size += len(texts[i])
	}
	f, out := newFeaturizer(DefaultDim), make([]float32, DefaultDim)
	b.SetBytes(int64(size / len(texts)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f.embed(texts[i%len(texts)], out)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "texts/s")
}

// benchVectors is the number of vectors of the search benchmarks;
// CTX_VECTOR_BENCH overrides it.
func benchVectors(b *testing.B) int {
	if s := os.Getenv("CTX_VECTOR_BENCH"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 200_000
}

// benchIndex embeds n generated messages into one set (or sets of 2^18
// rows) and opens them.
func benchIndex(b *testing.B, n int) *Index {
	b.Helper()
	home := b.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	h := NewHash(0)
	f := newFeaturizer(DefaultDim)
	m := &Manifest{Format: setFormat, Generation: objects.HashParts("bench"), Embedder: h.ID(), Dim: h.Dim()}
	must(b, os.MkdirAll(home, 0o700))
	s := core.Session{ID: core.NewSessionID("bench", "s"), Provider: "bench", Workspace: "/src/bench"}
	for start := 0; start < n; start += DefaultMaxSetRows {
		sb := newSetBuilder(home, h.Dim())
		v := make([]float32, h.Dim())
		for i := start; i < min(n, start+DefaultMaxSetRows); i++ {
			f.embed(benchText(rng), v)
			e := core.Event{ID: core.NewEventID(s.ID, fmt.Sprint(i)), Type: core.TypeMessage, Role: core.RoleAssistant,
				Timestamp: time.Unix(int64(i), 0)}
			must(b, sb.add(&e, &s, objects.HashParts(fmt.Sprint(i/32)), v))
		}
		info, err := sb.write(h.ID(), 1)
		must(b, err)
		m.Sets = append(m.Sets, SetRef{Name: info.Name, Count: info.Count, Chunks: info.Chunks, Generation: 1})
	}
	must(b, writeManifest(home, m))
	ix, err := Open(home, m.Generation)
	must(b, err)
	b.Cleanup(func() { ix.Close() })
	return ix
}

// BenchmarkSearch measures exact top-100 search over 200,000 vectors with
// queries of the built-in embedder (a few dozen non-zero dimensions) and
// with dense queries (as a model's embeddings are), reporting the median.
//
//	go test ./semantic/ -run '^$' -bench Search -benchtime 200x
func BenchmarkSearch(b *testing.B) {
	n := benchVectors(b)
	ix := benchIndex(b, n)
	h := NewHash(0)
	queries := []string{"flaky test timeout", "parseConfig", "connection refused retry backoff",
		"migration rollback database transaction", "nil pointer dereference in session store"}
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(q func(i int) []float32, f *core.Filter) func(b *testing.B) {
		return func(b *testing.B) {
			var times []time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				if _, err := ix.Search(context.Background(), q(i), f, 100); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(n), "vectors")
		}
	}
	builtin := func(i int) []float32 { return embedOne(b, h, queries[i%len(queries)]) }
	dense := make([][]float32, 16)
	for i := range dense {
		dense[i] = sparseQuery(rng, DefaultDim, DefaultDim*4)
	}
	b.Run("builtin-query", run(builtin, nil))
	b.Run("builtin-query-filtered", run(builtin, &core.Filter{Roles: []core.Role{core.RoleAssistant}, Since: time.Unix(1000, 0)}))
	b.Run("dense-query", run(func(i int) []float32 { return dense[i%len(dense)] }, nil))
}
