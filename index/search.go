package index

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
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
	// EventType restricts to one type (callers reject it combined with a
	// scope other than all; here both simply apply).
	EventType core.EventType
	Providers []string
	// Workspace matches sessions whose workspace is this path or lies under
	// it (/a/b matches /a/b and /a/b/c, not /a/bc).
	Workspace string
	Roles     []core.Role
	Sessions  []core.SessionID
	// SourceRoots and SourceGroups form one OR set over the sessions'
	// configured source root and group names (spec 000).
	SourceRoots  []string
	SourceGroups []string
	// Files matches events that touched one of these paths or file names
	// (exact, case-sensitive).
	Files []string
	// Tools matches events of these tool names (exact; for MCP calls also
	// the MCP tool name).
	Tools []string
	// Since is inclusive and Until exclusive; zero means unbounded. Events
	// without a timestamp never pass a time bound.
	Since, Until time.Time
	// PrimaryOnly excludes subagent sessions.
	PrimaryOnly bool
	// Limit is the number of hits (DefaultLimit, at most MaxLimit).
	Limit int
	// Superseded drops hits for which it returns true (a generation's
	// tombstones), in addition to the Reader's WithSuperseded.
	Superseded func(shard string, id core.EventID) bool
}

// Result is a page of grouped hits.
type Result struct {
	Hits []Hit
	// Total counts the matching documents before grouping and the limit,
	// as bleve reports them: superseded copies are included.
	Total uint64
}

// Search runs q over the shards: bleve scores the text query under the
// filters, the top max(5×limit, 100) candidates are weighted by class and
// re-sorted, superseded hits dropped, and the hits grouped by root session
// (see group). For text of several words the candidates come from the
// documents matching every word when there are enough of them, else from
// those matching any (see textQueries); Result.Total counts the documents
// of the query used.
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
	musts, hasText := []query.Query{query.NewMatchAllQuery()}, false
	if strings.TrimSpace(q.Text) != "" {
		if musts = r.textQueries(q.Text); len(musts) == 0 {
			return Result{}, nil
		}
		hasText = true
	}
	f := filters(q, scope)
	n := max(candidateFactor*limit, minCandidates)
	var (
		hits  []Hit
		total uint64
	)
	for i, must := range musts {
		bq := must
		if len(f) > 0 {
			b := query.NewBooleanQuery([]query.Query{must}, nil, nil)
			b.AddFilter(query.NewConjunctionQuery(f))
			bq = b
		}
		if hits, total, err = r.candidates(ctx, bq, q, hasText, n); err != nil {
			return Result{}, err
		}
		if len(hits) >= n || i == len(musts)-1 {
			break
		}
	}
	if hasText {
		hits = weigh(hits, scope)
	}
	sortHits(hits)
	return Result{Hits: group(hits, limit), Total: total}, nil
}

// weigh multiplies each hit's score by the scope weight of its event type,
// dropping hits the scope excludes.
func weigh(hits []Hit, scope core.Scope) []Hit {
	kept := hits[:0]
	for _, h := range hits {
		if w, ok := scope.Weight(h.EventType); ok {
			h.Score *= w
			kept = append(kept, h)
		}
	}
	return kept
}

// candidates fetches windows of the top hits by bleve score (newest first
// for empty text) until n live, distinct hits are collected or the matches
// run out.
func (r *Reader) candidates(ctx context.Context, bq query.Query, q Query, hasText bool, n int) ([]Hit, uint64, error) {
	var (
		out   []Hit
		total uint64
		seen  = make(map[core.EventID]bool)
	)
	loader := r.newHitLoader()
	defer loader.close()
	for round := 0; round < maxFetchRounds && len(out) < n; round++ {
		req := bleve.NewSearchRequestOptions(bq, n, round*n, false)
		if !hasText {
			req.SortBy([]string{"-" + fieldTimestamp, "_id"})
		}
		res, err := r.alias.SearchInContext(ctx, req)
		if err != nil {
			return nil, 0, fmt.Errorf("index: search: %w", err)
		}
		if round == 0 {
			total = res.Total
		}
		if out, err = r.collect(out, res.Hits, loader, seen, q.Superseded); err != nil {
			return nil, 0, err
		}
		if len(res.Hits) < n {
			break
		}
	}
	return out, total, nil
}

// collect appends the live hits of a window not seen before.
func (r *Reader) collect(out []Hit, dms []*search.DocumentMatch, loader *hitLoader,
	seen map[core.EventID]bool, superseded func(string, core.EventID) bool) ([]Hit, error) {
	for _, dm := range dms {
		id, err := eventID(dm)
		if err != nil {
			return nil, err
		}
		if seen[id] || r.isSuperseded(superseded, dm.Index, id) {
			continue
		}
		seen[id] = true
		h, err := loader.load(dm, id)
		if err != nil {
			return nil, err
		}
		if math.IsNaN(h.Score) {
			h.Score = 0
		}
		out = append(out, h)
	}
	return out, nil
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
		add(fieldType, typeStrs(scope.Types()))
	}
	if q.EventType != "" {
		add(fieldType, []string{string(q.EventType)})
	}
	add(fieldProvider, q.Providers)
	add(fieldRole, roleStrs(q.Roles))
	add(fieldSession, sessionStrs(q.Sessions))
	add(fieldFiles, q.Files)
	add(fieldTool, q.Tools)
	if len(q.SourceRoots)+len(q.SourceGroups) > 0 {
		src := anyTerm(fieldSourceRoot, q.SourceRoots)
		for _, g := range q.SourceGroups {
			src.AddQuery(term(fieldSourceGroup, g, 1))
		}
		out = append(out, src)
	}
	if w := workspaceQuery(q.Workspace); w != nil {
		out = append(out, w)
	}
	if !q.Since.IsZero() || !q.Until.IsZero() {
		incl, excl := true, false
		dr := query.NewDateRangeInclusiveQuery(q.Since, q.Until, &incl, &excl)
		dr.SetField(fieldTimestamp)
		out = append(out, dr)
	}
	if q.PrimaryOnly {
		b := query.NewBoolFieldQuery(false)
		b.SetField(fieldSubagent)
		out = append(out, b)
	}
	return out
}

// workspaceQuery matches the workspace itself or any path under it.
func workspaceQuery(ws string) query.Query {
	if strings.TrimSpace(ws) == "" {
		return nil
	}
	sep := "/"
	if strings.Contains(ws, `\`) && !strings.Contains(ws, "/") {
		sep = `\`
	} else {
		ws = filepath.ToSlash(filepath.Clean(ws))
	}
	if trimmed := strings.TrimRight(ws, sep); trimmed != "" && !strings.HasSuffix(trimmed, ":") {
		ws = trimmed
	}
	prefix := ws
	if !strings.HasSuffix(ws, sep) {
		prefix += sep
	}
	p := query.NewPrefixQuery(prefix)
	p.SetField(fieldWorkspace)
	return query.NewDisjunctionQuery([]query.Query{term(fieldWorkspace, ws, 1), p})
}

func anyTerm(field string, values []string) *query.DisjunctionQuery {
	d := query.NewDisjunctionQuery(nil)
	for _, v := range values {
		d.AddQuery(term(field, v, 1))
	}
	return d
}

func typeStrs(ts []core.EventType) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

func roleStrs(rs []core.Role) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

func sessionStrs(ids []core.SessionID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
