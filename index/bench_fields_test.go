package index

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"

	"ctx/core"
	gen "ctx/internal/corpus"
	"ctx/sources"
)

// BenchmarkFieldCost splits the cost of a shard document by field: it
// indexes the events of a generated history (CTX_INDEX_BENCH_DOCS of them,
// default 20000; internal/corpus, seed 42, parsed by the real parsers) once
// as shards are built and once without each group of fields, into one
// shard with safe batches of DefaultBatchSize, and reports CPU and bytes
// per document. The difference to "full" is what a group costs.
func BenchmarkFieldCost(b *testing.B) {
	docs := parsedCorpus(b, benchDocs(b))
	code, std := newMapping().AnalyzerNamed(CodeAnalyzer), newMapping().AnalyzerNamed(QueryAnalyzer)
	var tokens, unique, uniqueStd int
	for _, d := range docs {
		text := []byte(eventText(d.Event))
		toks := code.Analyze(text)
		tokens += len(toks)
		unique += len(analysisTerms(toks))
		uniqueStd += len(analysisTerms(std.Analyze(text)))
	}
	n := float64(len(docs))
	variants := []struct {
		name string
		doc  func(*shardDoc) any
	}{
		{"full", func(d *shardDoc) any { return d }},
		{"no-hit", func(d *shardDoc) any { d.Hit = ""; return d }},
		{"no-time", func(d *shardDoc) any { d.Day, d.TS = "", ""; return d }},
		{"no-session-fields", func(d *shardDoc) any {
			d.Root, d.Provider, d.Workspace, d.SourceRoot, d.SourceGroup, d.Subagent = "", "", "", "", "", false
			return d
		}},
		{"text-only", func(d *shardDoc) any { return map[string]any{fieldText: d.Text} }},
		{"text-only-standard", func(d *shardDoc) any { return map[string]any{"plain": d.Text} }},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			var cpu float64
			var size int64
			for i := 0; i < b.N; i++ {
				dir := filepath.Join(b.TempDir(), "shard")
				im := newMapping()
				im.DefaultMapping.AddFieldMappingsAt("plain", &mapping.FieldMapping{Type: "text",
					Analyzer: QueryAnalyzer, Index: true})
				idx, err := bleve.NewUsing(dir, im, scorch.Name, scorch.Name, nil)
				if err != nil {
					b.Fatal(err)
				}
				cpu0 := cpuTime()
				batch := idx.NewBatch()
				for _, d := range docs {
					if err := batch.Index(d.Event.ID.String(), v.doc(newShardDoc(d.Event, d.Session, d.Chunk))); err != nil {
						b.Fatal(err)
					}
					if batch.Size() >= DefaultBatchSize {
						if err := idx.Batch(batch); err != nil {
							b.Fatal(err)
						}
						batch = idx.NewBatch()
					}
				}
				if err := idx.Batch(batch); err != nil {
					b.Fatal(err)
				}
				if err := idx.Close(); err != nil {
					b.Fatal(err)
				}
				cpu += float64((cpuTime() - cpu0).Microseconds())
				size = treeBytes(dir)
			}
			b.ReportMetric(cpu/n/float64(b.N), "cpu-µs/doc")
			b.ReportMetric(float64(size)/n, "B/doc")
			b.ReportMetric(float64(tokens)/n, "text-tokens/doc")
			b.ReportMetric(float64(unique)/n, "text-terms/doc")
			b.ReportMetric(float64(uniqueStd)/n, "std-terms/doc")
		})
	}
}

// parsedCorpus generates a history of about n events and parses it with the
// built-in parsers.
func parsedCorpus(b *testing.B, n int) []Doc {
	b.Helper()
	home := filepath.Join(b.TempDir(), "home")
	if _, err := gen.Generate(home, gen.Options{Events: n, Seed: 42}); err != nil {
		b.Fatal(err)
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	var out []Doc
	for _, p := range sources.Builtin() {
		files, _ := core.Source{Kind: core.KindAutomatic, Provider: p}.Discover(env)
		for _, f := range files {
			res, err := p.Parse(f)
			if err != nil {
				b.Fatal(err)
			}
			for i := range res.Sessions {
				s := &res.Sessions[i]
				for k := range s.Events {
					out = append(out, Doc{Event: &s.Events[k], Session: &s.Session})
				}
			}
		}
	}
	return out
}

func analysisTerms(toks analysis.TokenStream) map[string]bool {
	out := make(map[string]bool, len(toks))
	for _, t := range toks {
		out[string(t.Term)] = true
	}
	return out
}

func treeBytes(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}
