package index

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"ctx/core"
)

// Search limits.
const (
	DefaultLimit = 20
	MaxLimit     = 1000
	// candidateFactor and minCandidates size the top-by-bleve-score window
	// that class weights and grouping are applied to: max(5×limit, 100).
	candidateFactor = 5
	minCandidates   = 100
	// maxFetchRounds bounds the extra windows fetched when superseded hits
	// leave too few candidates.
	maxFetchRounds = 4
)

// Query is one search. All filters combine with the text (and with each
// other) by AND; a list filter matches any of its values.
type Query struct {
	// Text is analyzed with QueryAnalyzer; see textQuery for its semantics.
	// Empty text matches every event that passes the filters, newest first.
	Text string
	// Scope selects event classes and weights them (core.Scope.Weight) at
	// query time. Zero means all.
	Scope core.Scope
	// Filter selects the events searched (core.Filter; its Types are
	// ANDed with the scope's).
	Filter core.Filter
	// Limit is the number of hits (DefaultLimit, at most MaxLimit).
	Limit int
	// Superseded drops hits for which it returns true (a generation's
	// tombstones), in addition to the Reader's WithSuperseded.
	Superseded func(shard string, id core.EventID) bool
	// Event, when set, returns a hit's event from the store: Search checks
	// quoted phrases (their words in order, common words included) and the
	// whole query against the candidates' text with it. Without it a
	// phrase matches as its words.
	Event func(core.Hit) (*core.Event, error)
}

// Result is a page of grouped hits.
type Result struct {
	Hits []core.Hit
	// Total counts the matching documents before grouping and the limit,
	// as bleve reports them: superseded copies are included.
	Total uint64
	// Match says which documents the text matched: MatchAll (every word),
	// MatchAny (too few held every word, so documents holding any word
	// follow them) or "" (no text).
	Match string
}

// Values of Result.Match.
const (
	MatchAll = "all_words"
	MatchAny = "any_word"
)

// wholeBonus multiplies the score of a hit whose text holds the whole
// query, its words in order and next to each other: more than the spread
// of the class weights (1.0/0.6), so that the output holding an error
// message verbatim outranks a message that mentions some of its words.
const wholeBonus = 2.0

// Search runs q over the shards: the text query (see compile) under the
// filters, scored with BM25 over the generation's global statistics; the
// top max(5×limit, 100) candidates are checked against their text when the
// query has a quoted phrase or several words (Query.Event), weighted by
// class and re-sorted, superseded hits dropped, and the hits grouped by
// root session (see group). The documents holding every word come first;
// only when they are fewer than the limit do documents holding any word
// follow (Result.Match says which happened).
func (r *Reader) Search(ctx context.Context, q Query) (Result, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	if len(r.idxs) == 0 {
		return Result{}, nil
	}
	scope, err := core.ParseScope(string(q.Scope))
	if err != nil {
		return Result{}, err
	}
	loader := r.newHitLoader()
	defer loader.close()
	plan := &textPlan{}
	if strings.TrimSpace(q.Text) != "" {
		if plan, err = r.compile(q.Text, loader.docFreq); err != nil {
			return Result{}, err
		}
	}
	f := append(filters(q, scope), fieldFilters(plan.fields)...)
	n := max(candidateFactor*limit, minCandidates)
	c := &collector{r: r, q: q, match: q.Filter.Compile(), plan: plan, loader: loader, seen: map[core.EventID]bool{}}
	res := Result{}
	if plan.narrow == nil {
		err = c.fetch(ctx, query.NewMatchAllQuery(), f, nil, false, n)
		res.Total = c.total
	} else {
		res.Match = MatchAll
		err = c.fetch(ctx, plan.narrow, f, plan.not, true, n)
		res.Total = c.total
		if err == nil && plan.broad != nil && len(c.hits) < limit {
			before := len(c.hits)
			c.partial = true
			err = c.fetch(ctx, plan.broad, f, plan.not, true, n)
			if len(c.hits) > before {
				res.Match, res.Total = MatchAny, c.total
			}
		}
	}
	if err != nil {
		return Result{}, err
	}
	hits := c.hits
	if plan.narrow != nil {
		hits = weigh(hits, scope)
	}
	core.SortHits(hits)
	res.Hits = core.GroupHits(hits, limit)
	return res, nil
}

// weigh multiplies each hit's score by the scope weight of its event type,
// dropping hits the scope excludes.
func weigh(hits []core.Hit, scope core.Scope) []core.Hit {
	kept := hits[:0]
	for _, h := range hits {
		if w, ok := scope.Weight(h.EventType); ok {
			h.Score *= w
			kept = append(kept, h)
		}
	}
	return kept
}

// collector gathers the live candidates of a search, each once, checking
// phrases and the whole query against the hit's text.
type collector struct {
	r       *Reader
	q       Query
	match   *core.Match // q.Filter compiled
	plan    *textPlan
	loader  *hitLoader
	seen    map[core.EventID]bool
	hits    []core.Hit
	total   uint64
	partial bool
}

// fetch adds windows of the top hits of must (by score, or newest first
// without text) under the filters until n more live, distinct hits are
// collected or the matches run out.
func (c *collector) fetch(ctx context.Context, must query.Query, f, not []query.Query, scored bool, n int) error {
	bq := must
	if len(f) > 0 || len(not) > 0 {
		b := query.NewBooleanQuery([]query.Query{must}, nil, not)
		if len(f) > 0 {
			b.AddFilter(query.NewConjunctionQuery(f))
		}
		bq = b
	}
	want := len(c.hits) + n
	for round := 0; round < maxFetchRounds && len(c.hits) < want; round++ {
		req := bleve.NewSearchRequestOptions(bq, n, round*n, false)
		if !scored {
			req.SortBy([]string{"-" + fieldTS, "_id"})
		}
		res, err := c.r.alias.SearchInContext(ctx, req)
		if err != nil {
			return fmt.Errorf("index: search: %w", err)
		}
		if round == 0 {
			c.total = res.Total
		}
		if err := c.collect(res.Hits); err != nil {
			return err
		}
		if len(res.Hits) < n {
			break
		}
	}
	return nil
}

// collect appends the live hits of a window not seen before.
func (c *collector) collect(dms []*search.DocumentMatch) error {
	for _, dm := range dms {
		id, err := eventID(dm)
		if err != nil {
			return err
		}
		if c.seen[id] || c.r.isSuperseded(c.q.Superseded, dm.Index, id) {
			continue
		}
		c.seen[id] = true
		h, err := c.loader.load(dm, id)
		if err != nil {
			return err
		}
		if !inTime(c.match, &c.q.Filter, h.Timestamp) {
			continue // on a boundary day, outside the exact bound
		}
		if math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
			h.Score = 0
		}
		keep, err := c.check(&h)
		if err != nil {
			return err
		}
		if keep {
			h.Partial = c.partial
			c.hits = append(c.hits, h)
		}
	}
	return nil
}

// check verifies a hit against its text (when Query.Event is set): a hit
// lacking a quoted phrase is dropped, one holding the whole query gains
// wholeBonus.
func (c *collector) check(h *core.Hit) (bool, error) {
	if c.q.Event == nil || (len(c.plan.phrases) == 0 && len(c.plan.whole) == 0) {
		return true, nil
	}
	e, err := c.q.Event(*h)
	if err != nil {
		return false, err
	}
	w := words(eventText(e))
	for _, p := range c.plan.phrases {
		if !containsRun(w, p) {
			return false, nil
		}
	}
	if len(c.plan.whole) > 0 && containsRun(w, c.plan.whole) {
		h.Score *= wholeBonus
	}
	return true, nil
}

// fieldFilters returns the filters of the text's field: items.
func fieldFilters(fields map[string][]string) []query.Query {
	var out []query.Query
	for _, f := range []string{fieldProvider, fieldRole, fieldType, fieldFiles} {
		if v := fields[f]; len(v) > 0 {
			out = append(out, anyTerm(f, v))
		}
	}
	return out
}

// filters returns the filter clauses of q; they select but do not score.
func filters(q Query, scope core.Scope) []query.Query {
	var out []query.Query
	add := func(field string, values []string) {
		if len(values) > 0 {
			out = append(out, anyTerm(field, values))
		}
	}
	if scope != core.ScopeAll {
		add(fieldType, strs(scope.Types()))
	}
	f := &q.Filter
	add(fieldType, strs(f.Types))
	add(fieldProvider, f.Providers)
	add(fieldRole, strs(f.Roles))
	add(fieldSession, idStrs(f.Sessions))
	add(fieldRoot, idStrs(f.RootSessions))
	add(fieldFiles, f.Files)
	if len(f.SourceRoots)+len(f.SourceGroups) > 0 {
		src := anyTerm(fieldSourceRoot, f.SourceRoots)
		for _, g := range f.SourceGroups {
			src.AddQuery(term(fieldSourceGroup, g, 1))
		}
		out = append(out, src)
	}
	if w := workspaceQuery(f.Workspace); w != nil {
		out = append(out, w)
	}
	if d := dayRange(f.Since, f.Until); d != nil {
		out = append(out, d)
	}
	if f.PrimaryOnly {
		b := query.NewBoolFieldQuery(false)
		b.SetField(fieldSubagent)
		out = append(out, b)
	}
	return out
}

// dayRange selects the events of the UTC days from since's through
// until's (either zero is unbounded), or nil when both are zero; inTime
// checks the exact bounds on each candidate. An event without an indexed
// time has no day, so it never passes a time bound.
func dayRange(since, until time.Time) query.Query {
	if since.IsZero() && until.IsZero() {
		return nil
	}
	lo, hi := "0", "" // every day term is digits, so "0" is below them all; "" is unbounded
	if !since.IsZero() {
		lo = dayTerm(since)
	}
	if !until.IsZero() {
		hi = dayTerm(until)
	}
	yes := true
	r := query.NewTermRangeInclusiveQuery(lo, hi, &yes, &yes)
	r.SetField(fieldDay)
	return r
}

// inTime reports whether a hit's time is within the filter's bounds
// (Since inclusive, Until exclusive); a hit without an indexed time passes
// no bound.
func inTime(m *core.Match, f *core.Filter, ts time.Time) bool {
	return !f.Timed() || (indexedTime(ts) && m.Time(ts))
}

// workspaceQuery matches the workspace itself or any path under it
// (core.WorkspaceScope).
func workspaceQuery(ws string) query.Query {
	sc, ok := core.ParseWorkspaceScope(ws)
	if !ok {
		return nil
	}
	p := query.NewPrefixQuery(sc.Prefix)
	p.SetField(fieldWorkspace)
	return query.NewDisjunctionQuery([]query.Query{term(fieldWorkspace, sc.Dir, 1), p})
}

func anyTerm(field string, values []string) *query.DisjunctionQuery {
	d := query.NewDisjunctionQuery(nil)
	for _, v := range values {
		d.AddQuery(term(field, v, 1))
	}
	return d
}

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

func idStrs(ids []core.SessionID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
