package index

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"ctx/core"
)

// leanCorpus builds a generated corpus of n events into several shards
// and opens them.
func leanCorpus(t *testing.T, n int) (*Reader, []Doc) {
	t.Helper()
	var docs []Doc
	for d := range newCorpus(11).stream(n) {
		docs = append(docs, d)
	}
	root := t.TempDir()
	metas := build(t, root, docs, BuildOptions{Shards: 2, MaxShardDocs: n / 3, BatchSize: 4 * core.ChunkSize})
	r, err := Open(root, names(metas), eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	if len(r.shards) < 3 {
		t.Fatalf("%d shards, want several", len(r.shards))
	}
	return r, docs
}

// leanQueries are texts of every shape: one word, several, inflected
// forms, snake_case and camelCase identifiers (a camelCase one has a
// fixed-score alternative), paths, file names and an event id (exact
// clauses), words no group holds, and more words than the broad query's
// disjunction leanGroups runs.
func leanQueries(rng *rand.Rand, docs []Doc) []string {
	qs := camelQueries(docs, 8)
	qs = append(qs, []string{"error", "failed timeout", "parse config index", "tests", "building", "parse_config",
		"parseConfig", "internal/store/index.go", "index.go", "walrus", "error walrus", "the test",
		"config -error", `"failed timeout"`, "session OR query", "evt_0123456789abcdef0123456789abcdef",
		"the error config parse index store build test failed timeout request response server client walrus"}...)
	for range 60 {
		n := 1 + rng.IntN(3)
		var w []string
		for range n {
			w = append(w, baseWords[rng.IntN(len(baseWords))])
		}
		qs = append(qs, strings.Join(w, " "))
	}
	return qs
}

// leanFilters are filters of every kind a search puts beside its text:
// terms (provider, type, role), a workspace (a term or a prefix), a day
// range, primary sessions only, and several at once.
func leanFilters(docs []Doc) []core.Filter {
	first, last := docs[0].Event.Timestamp, docs[len(docs)-1].Event.Timestamp
	mid := first.Add(last.Sub(first) / 2)
	ws := docs[len(docs)/2].Session.Workspace
	return []core.Filter{
		{Providers: []string{"prov-a", "prov-c"}},
		{Types: []core.EventType{core.TypeToolCall}},
		{Roles: []core.Role{core.RoleUser}},
		{Workspace: ws},
		{Workspace: strings.TrimRight(ws, "0123456789")}, // a prefix of several
		{Since: mid},
		{Since: first.Add(time.Hour), Until: mid},
		{PrimaryOnly: true},
		{Providers: []string{"prov-b"}, PrimaryOnly: true, Since: first.Add(24 * time.Hour)},
	}
}

// camelQueries returns the camelCase forms of the n snake_case
// identifiers the docs hold most, with a word: their words joined by
// underscores are a fixed-score alternative of the folded form.
func camelQueries(docs []Doc, n int) []string {
	counts := map[string]int{}
	for _, d := range docs {
		for _, w := range snakeRE.FindAllString(d.Event.Text, -1) {
			counts[w]++
		}
	}
	keys := slices.Collect(maps.Keys(counts))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	var out []string
	for _, k := range keys[:min(n, len(keys))] {
		parts := strings.Split(k, "_")
		for i := 1; i < len(parts); i++ {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
		out = append(out, strings.Join(parts, ""), strings.Join(parts, "")+" error")
	}
	return out
}

var snakeRE = regexp.MustCompile(`\b[a-z]+_[a-z]+\b`)

// TestLeanGroupsAsBleve runs the first stage of many queries (words,
// forms, identifiers, paths, file names, ids, questions), their narrow and
// their broad query, both ways over several shards: leanGroups must answer
// every one leanable lets through, with the groups, scores (bit for bit)
// and total bleve gives for the same request.
func TestLeanGroupsAsBleve(t *testing.T) {
	r, docs := leanCorpus(t, 6000)
	rng := rand.New(rand.NewPCG(3, 4))
	lean, leftToBleve, anyWord, exact, filtered, filteredFound := 0, 0, 0, 0, 0, 0
	for _, text := range leanQueries(rng, docs) {
		loader := r.newHitLoader()
		plan, err := r.compile(text, loader.docFreq)
		if err != nil {
			loader.close()
			continue
		}
		queries := []query.Query{plan.narrow, plan.broad}
		for _, f := range leanFilters(docs) {
			queries = append(queries, withFilters(plan.narrow, filters(Query{Filter: f}, core.ScopeAll)))
		}
		for _, q := range queries {
			if q == nil {
				continue
			}
			if !leanable(q, true) {
				leftToBleve++
				continue
			}
			broad := q == plan.broad
			if broad {
				anyWord++
			}
			if d, ok := q.(*query.DisjunctionQuery); ok && !broad && len(d.Disjuncts) > 1 {
				exact++ // the words and exact identifiers
			}
			if _, ok := q.(*query.BooleanQuery); ok {
				filtered++
			}
			for _, n := range []int{1, 10, 49, 500} {
				c := &collector{r: r, loader: loader}
				got, ok := c.leanGroups(context.Background(), q, n)
				if !ok {
					t.Fatalf("%q: the lean first stage gave up on a readable index", text)
				}
				lean++
				want, err := r.alias.SearchInContext(context.Background(), bleve.NewSearchRequestOptions(q, n, 0, false))
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := q.(*query.BooleanQuery); ok && got.Total > 0 && n == 1 {
					filteredFound++
				}
				if got.Total != want.Total {
					t.Fatalf("%q (%d, broad %v): total %d, bleve %d", text, n, broad, got.Total, want.Total)
				}
				if a, b := groupScores(got, n), groupScores(want, n); !slices.Equal(a, b) {
					t.Fatalf("%q (%d, broad %v): groups\n%v\nbleve\n%v", text, n, broad, a, b)
				}
			}
		}
		loader.close()
	}
	if lean < 100 || leftToBleve < 1 || anyWord < 20 || exact < 3 || filtered < 100 || filteredFound < 50 {
		t.Fatalf("lean answered %d requests (%d broad queries, %d with exact identifiers, %d filtered, %d of them "+
			"finding groups), bleve %d queries: the test no longer covers each",
			lean, anyWord, exact, filtered, filteredFound, leftToBleve)
	}
}

// groupScores lists the groups of a result by score (bit for bit), then
// shard and id, leaving out those that tie with the last: which of them
// a size holds is the index's order (collector.groups asks again ordered
// then).
func groupScores(res *bleve.SearchResult, size int) []string {
	hits := slices.Clone(res.Hits)
	slices.SortFunc(hits, func(a, b *search.DocumentMatch) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Index+a.ID, b.Index+b.ID)
	})
	var out []string
	for _, h := range hits {
		if len(hits) > 0 && h.Score == hits[len(hits)-1].Score && len(hits) == size {
			continue
		}
		out = append(out, fmt.Sprintf("%s/%s/%x", h.Index, h.ID, h.Score))
	}
	return out
}

// TestLeanSearchAsBleve runs whole searches with the lean first stage and
// without it: the same hits, scores and totals.
func TestLeanSearchAsBleve(t *testing.T) {
	r, docs := leanCorpus(t, 6000)
	rng := rand.New(rand.NewPCG(5, 6))
	filters := append([]core.Filter{{}}, leanFilters(docs)...)
	for i, text := range leanQueries(rng, docs) {
		for _, limit := range []int{5, 20} {
			q := Query{Text: text, Limit: limit, Filter: filters[i%len(filters)]}
			leanFirstStage = false
			want, errWant := r.Search(context.Background(), q)
			leanFirstStage = true
			got, errGot := r.Search(context.Background(), q)
			if (errWant == nil) != (errGot == nil) {
				t.Fatalf("%q: error %v, without the lean stage %v", text, errGot, errWant)
			}
			if !slices.Equal(describe(got.Hits), describe(want.Hits)) || got.Total != want.Total ||
				got.TotalExact != want.TotalExact || got.Match != want.Match {
				t.Fatalf("%q: %v (%d, %v, %v)\nwithout the lean stage %v (%d, %v, %v)", text,
					describe(got.Hits), got.Total, got.TotalExact, got.Match,
					describe(want.Hits), want.Total, want.TotalExact, want.Match)
			}
		}
	}
}
