package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"

	"ctx/core"
	gen "ctx/internal/corpus"
	"ctx/objects"
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
	var tokens, unique, uniqueStd, chunkTerms, repeats, repeatBytes, textBytes int
	seenText := map[string]bool{}
	run, runSession, runLen := map[string]bool{}, core.SessionID{}, 0
	for _, d := range docs {
		text := []byte(eventText(d.Event))
		toks := code.Analyze(text)
		terms := analysisTerms(toks)
		tokens += len(toks)
		unique += len(terms)
		uniqueStd += len(analysisTerms(std.Analyze(text)))
		textBytes += len(text)
		if seenText[string(text)] {
			repeats++
			repeatBytes += len(text)
		}
		seenText[string(text)] = true
		// A document per run of up to 64 events of a session (a chunk).
		if d.Session.ID != runSession || runLen == 64 {
			chunkTerms += len(run)
			run, runSession, runLen = map[string]bool{}, d.Session.ID, 0
		}
		runLen++
		for t := range terms {
			run[t] = true
		}
	}
	chunkTerms += len(run)
	n := float64(len(docs))
	variants := []struct {
		name string
		doc  func(*shardDoc) any
	}{
		{"full", func(d *shardDoc) any { return d }},
		{"no-hit", func(d *shardDoc) any { d.Hit = ""; return d }},
		{"no-time", func(d *shardDoc) any { d.Day, d.TS = nil, ""; return d }},
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
				idx, err := bleve.NewUsing(dir, shardMapping{im}, scorch.Name, scorch.Name, nil)
				if err != nil {
					b.Fatal(err)
				}
				cpu0 := cpuTime()
				batch := idx.NewBatch()
				for _, g := range groupsOf(docs) {
					sd := newShardDoc(g)
					if err := batch.Index(g.events[0].ID.String(), v.doc(sd)); err != nil {
						b.Fatal(err)
					}
					if batch.Size() >= DefaultBatchSize/8 {
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
			if v.name != "full" {
				return
			}
			// What the text holds, whatever the fields: tokens and distinct
			// terms per event; distinct terms per event were a document one
			// 64-event run of a session (a chunk); the share of events, and
			// of text bytes, that repeat an earlier event's text.
			b.ReportMetric(float64(tokens)/n, "tokens/event")
			b.ReportMetric(float64(unique)/n, "terms/event")
			b.ReportMetric(float64(uniqueStd)/n, "std-terms/event")
			b.ReportMetric(float64(chunkTerms)/n, "chunk-terms/event")
			b.ReportMetric(100*float64(repeats)/n, "%repeat-events")
			b.ReportMetric(100*float64(repeatBytes)/float64(textBytes), "%repeat-bytes")
		})
	}
}

// parsedCorpus generates a history of about n events and parses it with the
// built-in parsers.
func parsedCorpus(b testing.TB, n int) []Doc {
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
					chunk := objects.Hash([]byte(fmt.Sprintf("%s/%d", s.Session.ID, k/core.ChunkSize)))
					out = append(out, Doc{Event: &s.Events[k], Session: &s.Session, Chunk: chunk, Pos: k % core.ChunkSize})
				}
			}
		}
	}
	return out
}

// groupsOf cuts docs into the groups BuildShards indexes: consecutive
// events of one chunk.
func groupsOf(docs []Doc) []*chunkGroup {
	var out []*chunkGroup
	for _, d := range docs {
		if n := len(out); n > 0 && out[n-1].chunk == d.Chunk && out[n-1].session.ID == d.Session.ID {
			out[n-1].events, out[n-1].pos = append(out[n-1].events, d.Event), append(out[n-1].pos, d.Pos)
			continue
		}
		out = append(out, &chunkGroup{session: d.Session, chunk: d.Chunk, events: []*core.Event{d.Event}, pos: []int{d.Pos}})
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
