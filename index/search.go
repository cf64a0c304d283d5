package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
	// or groups without a matching event leave too few candidates.
	maxFetchRounds = 4
	// maxTimeRounds bounds the windows of a search without text, which
	// stops once no further group can hold a newer event.
	maxTimeRounds = 64
	// timeWindow is the number of groups per window without text.
	timeWindow = 4
)

// groupWindow is the number of groups fetched per window of a text search
// (at least the limit): each is read from the store and its events scored.
// A variable only so that BenchmarkFirstStage can widen it.
var groupWindow = 24

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
}

// Result is a page of grouped hits.
type Result struct {
	Hits []core.Hit
	// Total counts the matching events before grouping and the limit, as
	// far as they are known: the events that matched in the groups read,
	// plus one for each matching group not read (a lower bound).
	Total uint64
	// TotalExact says every matching group was read, so Total is the
	// number of matching events, not a lower bound.
	TotalExact bool
	// Match says which documents the text matched: MatchAll (every word),
	// MatchAny (too few held every word, so documents holding any word
	// follow them) or "" (no text).
	Match string
	// Damaged names the shards this search could not read (a damaged
	// segment, a group past its chunk), sorted; the hits come from the
	// others. The shards Open left out are Reader.Damaged.
	Damaged []string
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

// onlyBonus further multiplies the score of a hit whose command or text is
// the whole query and nothing else (the command typed, the error printed):
// the thing itself before a longer message that quotes it among other
// words and so gathers more of the query's terms.
const onlyBonus = 3.0

// isOnly reports whether s holds the words of whole and no other.
func isOnly(s string, whole []string) bool {
	n := 0
	for _, w := range whole {
		n += len(w) + 4
	}
	return s != "" && len(s) <= 2*n && slices.Equal(words(s), whole)
}

// Search runs q over the shards: the text query (see compile) under the
// filters matches groups of events, scored with BM25 over the generation's
// global statistics; the events of the best groups are read (WithEvents)
// and scored one by one against the same query, checked against the
// quoted phrases and the whole query, weighted by class and re-sorted,
// superseded events dropped, until enough hits are found; the hits are
// grouped by root session (see group). The documents holding every word come first;
// only when they are fewer than the limit do documents holding any word
// follow (Result.Match says which happened).
func (r *Reader) Search(ctx context.Context, q Query) (Result, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	if len(r.idxs) == 0 {
		return Result{TotalExact: true}, nil
	}
	scope, err := core.ParseScope(string(q.Scope))
	if err != nil {
		return Result{}, err
	}
	if r.chunks == nil {
		return Result{}, ErrNoEvents
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
	c := &collector{r: r, q: q, scope: scope, match: q.Filter.Compile(), plan: plan, loader: loader,
		seen: map[core.EventID]bool{}, pieces: newPieceCache()}
	res := Result{}
	if plan.narrow == nil {
		err = c.fetchNewest(ctx, query.NewMatchAllQuery(), f, n)
		res.Total, res.TotalExact = c.total, c.exact
	} else {
		gw := max(groupWindow, limit)
		want := max(2*limit, 2*groupWindow)
		res.Match = MatchAll
		err = c.fetch(ctx, plan.narrow, plan.enarrow, f, gw, want)
		res.Total, res.TotalExact = c.total, c.exact
		if err == nil && plan.broad != nil && len(c.hits) < limit {
			before := len(c.hits)
			c.partial = true
			err = c.fetch(ctx, plan.broad, plan.ebroad, f, gw, want)
			if len(c.hits) > before {
				res.Match, res.Total, res.TotalExact = MatchAny, c.total, c.exact
			}
		}
	}
	if err != nil {
		return Result{}, err
	}
	res.Damaged = c.damagedShards()
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

// collector gathers the live candidates of a search, each once, from the
// events of the groups matched.
type collector struct {
	r      *Reader
	q      Query
	scope  core.Scope
	match  *core.Match // q.Filter compiled
	plan   *textPlan
	loader *hitLoader
	seen   map[core.EventID]bool
	pieces *pieceCache
	hits   []core.Hit
	// total counts the matching events of the groups read plus, for the
	// groups not read, one each (a lower bound); exact says no group was
	// left unread (or unreadable) by the last fetch.
	total   uint64
	exact   bool
	partial bool
	damaged map[string]bool // shards a search read failed on
}

// failed notes the shards whose part of a bleve search failed (the alias
// answers from the others) and reports whether err is a damaged shard's
// own read error, which is noted and skipped too.
func (c *collector) failed(res *bleve.SearchResult, shard string, err error) bool {
	if c.damaged == nil {
		c.damaged = map[string]bool{}
	}
	if res != nil && res.Status != nil {
		for name := range res.Status.Errors {
			c.damaged[name] = true
		}
	}
	if err != nil && errors.Is(err, ErrShardDamaged) && shard != "" {
		c.damaged[shard] = true
		return true
	}
	return false
}

func (c *collector) damagedShards() []string {
	out := make([]string, 0, len(c.damaged))
	for name := range c.damaged {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func withFilters(must query.Query, f []query.Query) query.Query {
	if len(f) == 0 {
		return must
	}
	b := query.NewBooleanQuery([]query.Query{must}, nil, nil)
	b.AddFilter(query.NewConjunctionQuery(f))
	return b
}

// fetch reads windows of gw groups, best first, scoring their events
// against em, until want more live, distinct hits are collected, the
// groups run out or maxFetchRounds windows were read. The groups are asked
// of the index two windows at a time (most searches read one or two): each
// request runs the whole query over every shard again, and a larger page
// costs little more.
func (c *collector) fetch(ctx context.Context, must query.Query, em eNode, f []query.Query, gw, want int) error {
	bq := withFilters(must, f)
	want += len(c.hits)
	var total, groups, read uint64
	var page []*search.DocumentMatch
	asked, exhausted, ordered := 0, false, false
	for round := 0; round < maxFetchRounds && len(c.hits) < want; round++ {
		if len(page) < gw && !exhausted {
			size := min(2*gw, (maxFetchRounds-round)*gw)
			res, err := c.groups(ctx, bq, size, asked, &ordered)
			if err != nil {
				return err
			}
			if asked == 0 {
				total, groups = res.Total, res.Total
			}
			asked += size
			exhausted = len(res.Hits) < size
			page = append(page, res.Hits...)
		}
		window := page[:min(gw, len(page))]
		page = page[len(window):]
		r, matched, err := c.expandWindow(window, em, true)
		if err != nil {
			return err
		}
		read, total = read+r, total+matched-r // each group read was counted once
		if len(window) < gw {
			break
		}
	}
	c.total, c.exact = total, read == groups && len(c.damaged) == 0
	return nil
}

// groups returns the size best groups from offset from, by score. Groups
// of equal score come in the index's order, which depends on how the
// shards were cut and on which shard answered first; so one group more is
// asked for, and when the last two tie across the cut, the request is made
// again ordered by score, newest event and id (as core.HitLess orders
// hits), as is every later request of the search (*ordered). That order
// costs a third more per request, so it is kept for ties. Either way the
// groups of one score are returned by id.
func (c *collector) groups(ctx context.Context, bq query.Query, size, from int, ordered *bool) (*bleve.SearchResult, error) {
	ask := func(n int, sorted bool) (*bleve.SearchResult, error) {
		if !sorted && from == 0 && leanFirstStage {
			if leanable(bq, true) {
				if res, ok := c.leanGroups(ctx, bq, n); ok {
					return res, nil
				}
			}
		}
		req := bleve.NewSearchRequestOptions(bq, n, from, false)
		if sorted {
			req.SortBy([]string{"-_score", "-" + fieldTS, "_id"})
		}
		res, err := c.r.alias.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("index: search: %w", err)
		}
		c.failed(res, "", nil)
		return res, nil
	}
	if !*ordered {
		res, err := ask(size+1, false)
		if err != nil || len(res.Hits) <= size {
			sortTies(res)
			return res, err
		}
		if res.Hits[size].Score != res.Hits[size-1].Score {
			res.Hits = res.Hits[:size]
			sortTies(res)
			return res, nil
		}
		*ordered = true
	}
	return ask(size, true)
}

// sortTies orders the groups of equal score by id.
func sortTies(res *bleve.SearchResult) {
	if res == nil {
		return
	}
	slices.SortStableFunc(res.Hits, func(a, b *search.DocumentMatch) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// fetchNewest reads the groups newest first (by their newest event) until
// the n newest live events passing the filters are known: once n are
// collected, a group whose newest event is older than the n-th cannot
// change them.
func (c *collector) fetchNewest(ctx context.Context, must query.Query, f []query.Query, n int) error {
	bq := withFilters(must, f)
	var total, groups, read uint64
	for round := 0; round < maxTimeRounds; round++ {
		req := bleve.NewSearchRequestOptions(bq, timeWindow, round*timeWindow, false)
		req.SortBy([]string{"-" + fieldTS, "_id"})
		res, err := c.r.alias.SearchInContext(ctx, req)
		if err != nil {
			return fmt.Errorf("index: search: %w", err)
		}
		c.failed(res, "", nil)
		if round == 0 {
			total, groups = res.Total, res.Total // one event for each group until it is read
		}
		r, matched, err := c.expandWindow(res.Hits, nil, false)
		if err != nil {
			return err
		}
		read, total = read+r, total+matched-r
		if len(res.Hits) < timeWindow {
			break
		}
		if len(c.hits) >= n {
			last := res.Hits[len(res.Hits)-1]
			if len(last.Sort) == 0 || nthNewest(c.hits, n) > last.Sort[0] {
				break
			}
		}
	}
	c.total, c.exact = total, read == groups && len(c.damaged) == 0
	return nil
}

// nthNewest is the ts term of the n-th newest hit ("" when it has no time,
// which sorts below every group's).
func nthNewest(hits []core.Hit, n int) string {
	ts := make([]string, 0, len(hits))
	for _, h := range hits {
		t := ""
		if indexedTime(h.Timestamp) {
			t = tsTerm(h.Timestamp)
		}
		ts = append(ts, t)
	}
	slices.Sort(ts)
	return ts[len(ts)-n]
}

// groupRead is what expanding one group found: how many of its events
// matched, the hits it would add in the order of its events, and the
// error that stopped it (the hits before the error stand, as they did
// when groups were expanded one by one).
type groupRead struct {
	matched int
	hits    []pendingHit
	err     error
}

// pendingHit is a matching event's hit; keep says it passed check.
type pendingHit struct {
	hit  core.Hit
	keep bool
}

// expandWindow expands the groups of a window and adds what they hold
// in the window's order, so hits, totals and errors are those of
// expanding the groups one after the other. The groups' events are read
// and scored in parallel (each group on its own, with a piece cache per
// worker); loading the groups' stored hits, deduplicating and adding stay
// in this goroutine. It returns the groups read and the events they
// matched, and stops at the first error that is not a damaged shard's.
func (c *collector) expandWindow(window []*search.DocumentMatch, em eNode, scored bool) (read, matched uint64, err error) {
	groups := make([]groupHit, len(window))
	reads := make([]groupRead, len(window))
	for i, dm := range window {
		groups[i], reads[i].err = c.loader.load(dm) // an error leaves nothing to score
	}
	workers := min(len(window), runtime.GOMAXPROCS(0), maxExpandWorkers)
	next := atomic.Int64{}
	work := func(cache *pieceCache) {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(window) {
				return
			}
			if reads[i].err == nil {
				reads[i] = c.expand(window[i], groups[i], em, scored, cache)
			}
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(newPieceCache())
		}()
	}
	work(c.pieces)
	wg.Wait()
	for i, dm := range window {
		g := &reads[i]
		for _, p := range g.hits {
			if c.seen[p.hit.EventID] {
				continue
			}
			c.seen[p.hit.EventID] = true
			if p.keep {
				c.hits = append(c.hits, p.hit)
			}
		}
		if g.err != nil {
			if c.failed(nil, dm.Index, g.err) {
				continue
			}
			return read, matched, g.err
		}
		read++
		matched += uint64(g.matched)
	}
	return read, matched, nil
}

// maxExpandWorkers bounds the goroutines that score one window's groups.
const maxExpandWorkers = 4

// expand reads a matched group's events and returns those that pass the
// per-event filters, the excluded words and (when scored) em. It writes
// nothing of the collector's, so groups are expanded in parallel.
func (c *collector) expand(dm *search.DocumentMatch, g groupHit, em eNode, scored bool, cache *pieceCache) groupRead {
	var out groupRead
	ch, err := c.r.chunks(g.Chunk)
	if err != nil {
		out.err = err
		return out
	}
	for k, p := range g.pos {
		if p >= ch.Len() {
			out.err = shardErr(dm.Index, "read", ErrShardDamaged,
				fmt.Errorf("doc %s: position %d past its chunk of %d events", dm.ID, p, ch.Len()))
			return out
		}
		if scored && !mayMatch(ch, p, g.RootSessionID, em) {
			continue
		}
		e, err := ch.Event(p)
		if err != nil {
			out.err = err
			return out
		}
		if !eventPasses(c.match, &c.q.Filter, c.scope, c.plan.fields, e) || c.r.isSuperseded(c.q.Superseded, dm.Index, e.ID) {
			continue
		}
		cand := newCand(e, g.RootSessionID, c.r.code, g.lens[k])
		cand.cache = cache
		if excluded(c.plan.not, cand) {
			continue
		}
		score := 1.0
		if scored {
			s, ok := em.eval(cand)
			if !ok {
				continue
			}
			score = s
		}
		out.matched++
		if math.IsNaN(score) || math.IsInf(score, 0) {
			score = 0
		}
		h := g.Hit
		h.EventID, h.EventType, h.Role, h.Timestamp, h.Score, h.Partial = e.ID, e.Type, e.Role, e.Timestamp, score, c.partial
		keep := c.check(&h, cand)
		out.hits = append(out.hits, pendingHit{hit: h, keep: keep})
	}
	return out
}

func excluded(not []eNode, cand *evCand) bool {
	for _, n := range not {
		if _, ok := n.eval(cand); ok {
			return true
		}
	}
	return false
}

// check verifies a hit against its text: a hit lacking a quoted phrase is
// dropped, one holding the whole query gains wholeBonus.
func (c *collector) check(h *core.Hit, cand *evCand) bool {
	if len(c.plan.phrases) == 0 && len(c.plan.whole) == 0 {
		return true
	}
	lower := cand.lowerText()
	for _, p := range c.plan.phrases {
		if !hasRun(lower, p) {
			return false
		}
	}
	if len(c.plan.whole) > 0 && hasRun(lower, c.plan.whole) {
		h.Score *= wholeBonus
		if isOnly(cand.e.Command, c.plan.whole) || isOnly(cand.e.Text, c.plan.whole) {
			h.Score *= onlyBonus
		}
	}
	return true
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
// Over groups, the event-level ones (type, role, files, days) select the
// groups holding any such event; eventPasses checks each event.
func filters(q Query, scope core.Scope) []query.Query {
	var out []query.Query
	add := func(field string, values []string) {
		if len(values) > 0 {
			out = append(out, anyTerm(field, values))
		}
	}
	if scope != core.ScopeAll {
		add(fieldType, core.Strings(scope.Types()))
	}
	f := &q.Filter
	add(fieldType, core.Strings(f.Types))
	add(fieldProvider, f.Providers)
	add(fieldRole, core.Strings(f.Roles))
	add(fieldSession, core.SessionIDStrings(f.Sessions))
	add(fieldRoot, core.SessionIDStrings(f.RootSessions))
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
// (core.WorkspaceScope). A Windows path is matched through a regular
// expression over the workspace terms (few: one per directory), so that
// either separator and any case match, as core.WorkspaceScope.Contains
// does.
func workspaceQuery(ws string) query.Query {
	sc, ok := core.ParseWorkspaceScope(ws)
	if !ok {
		return nil
	}
	if sc.Windows {
		re := query.NewRegexpQuery(windowsPattern(sc.Dir))
		re.SetField(fieldWorkspace)
		return re
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

// windowsPattern is the regular expression of a Windows directory and the
// paths under it: separators as [\\/], ASCII letters in both cases, every
// other character literally.
func windowsPattern(dir string) string {
	var b strings.Builder
	for _, r := range strings.TrimRight(dir, `\/`) {
		switch {
		case r == '\\' || r == '/':
			b.WriteString(`[\\/]`)
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			l := r | 0x20
			b.WriteString("[" + string(l) + string(l-32) + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`([\\/].*)?`)
	return b.String()
}
