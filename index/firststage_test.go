package index_test

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"

	"ctx/index"
	"ctx/query"
)

// firstStageQueries are the store benchmark's searches and words of the
// generated corpus's vocabulary (ctx-corpus), in twos and threes.
var firstStageQueries = []string{
	"flaky test timeout", "parseConfig", "connection refused", "apply_patch", "retry backoff",
	"nil pointer dereference", "go test ./...", "migration rollback",
	"internal/server/handler.go", "fix the failing build", "handle lock", "close type",
	"remove response", "retry method", "decode option", "update cache", "lock boundary",
	"remove transaction", "rename edge", "add page", "test package", "import list", "add schema",
	"update deadline", "sort boundary", "write cursor", "import profile", "search trace",
	"move message", "retry response", "search module", "import package", "inline shell",
	"encode case", "revert generation", "current interface retry", "large branch pin",
	"missing commit rename", "unused memory cache", "next secret reproduce",
	"current allocation refactor", "stale cursor decode", "previous issue compare",
	"small lock encode", "previous store log", "stale generation return", "torn body refactor",
	"next interface remove", "concurrent request split", "next module add", "snapshot", "helper",
	"benchmark", "map", "header", "value", "constant", "payload", "failure", "batch",
}

// BenchmarkFirstStage measures how well the first stage of a text search
// (bleve's best groups, window after window of them) finds the events the
// second stage scores best, on a store a user's import built (as for
// BenchmarkSearchStore):
//
//	CTX_QUERY_BENCH_STORE=S go test ./index/ -run '^$' -bench FirstStage -benchtime 1x
//
// Each query runs with the search's own window of groups (or the one
// $CTX_FIRST_STAGE_WINDOW names) and with one 16 times wider than the
// search's own. It reports, over the queries that find anything, the score
// of the first hit as a fraction of the wider search's (median and 10th
// percentile) and the share of the wider search's first ten hits found.
func BenchmarkFirstStage(b *testing.B) {
	home := os.Getenv("CTX_QUERY_BENCH_STORE")
	if home == "" {
		b.Skip("CTX_QUERY_BENCH_STORE names no store")
	}
	r, err := query.Open(home)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	search := func(q string) []query.SearchHit {
		res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 10})
		if err != nil {
			b.Fatalf("%q: %v", q, err)
		}
		return res.Results
	}
	own := index.SetGroupWindow(0)
	index.SetGroupWindow(own)
	window := own
	if w := os.Getenv("CTX_FIRST_STAGE_WINDOW"); w != "" {
		if window, err = strconv.Atoi(w); err != nil || window <= 0 {
			b.Fatalf("CTX_FIRST_STAGE_WINDOW=%q: not a number of groups", w)
		}
	}
	defer index.SetGroupWindow(own)
	var ratios []float64
	var shared, total int
	for b.Loop() {
		ratios, shared, total = ratios[:0], 0, 0
		for _, q := range firstStageQueries {
			index.SetGroupWindow(window)
			got := search(q)
			index.SetGroupWindow(16 * own)
			wide := search(q)
			if len(wide) == 0 || wide[0].Score <= 0 {
				continue
			}
			top := 0.0
			if len(got) > 0 {
				top = got[0].Score
			}
			ratios = append(ratios, top/wide[0].Score)
			for _, w := range wide {
				total++
				if slices.ContainsFunc(got, func(h query.SearchHit) bool { return h.CtxEventID == w.CtxEventID }) {
					shared++
				}
			}
		}
	}
	if len(ratios) == 0 {
		b.Fatal("no query found anything")
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "top1-ratio-p50")
	b.ReportMetric(ratios[len(ratios)/10], "top1-ratio-p10")
	b.ReportMetric(float64(shared)/float64(total), "top10-shared")
	b.ReportMetric(float64(len(ratios)), "queries")
}
