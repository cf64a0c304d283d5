package query

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/index"
	"ctx/semantic"
	"ctx/store"
)

// Search modes (spec 000).
const (
	ModeLexical  = "lexical"
	ModeSemantic = "semantic"
	ModeHybrid   = "hybrid"
)

// Fallback reasons of a hybrid search answered lexically.
const (
	// FallbackLexicalOnlyScope: the scope or event type selects events
	// outside the semantic projection (tool calls, outputs, other).
	FallbackLexicalOnlyScope = "lexical_only_scope"
	// FallbackSemanticUnavailable: semantic search is off, the generation
	// has no vectors (yet), they are of another embedder, or the embedder
	// failed.
	FallbackSemanticUnavailable = "semantic_unavailable"
	// FallbackWeightZero: the semantic weight is 0, so no vector work was
	// done.
	FallbackWeightZero = "semantic_weight_zero"
)

// RRFK is the rank constant of reciprocal rank fusion: a result at rank r
// (from 1) of a list adds weight/(RRFK+r) to its fused score.
const RRFK = 60

// SearchFallback says why the answer used another mode than requested.
type SearchFallback struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason" jsonschema:"Why: semantic_unavailable, semantic_weight_zero or lexical_only_scope."`
	Note   string `json:"note"`
}

// SemanticInfo describes the vectors a semantic or hybrid search used.
type SemanticInfo struct {
	Embedder  string `json:"embedder"`
	Dimension int    `json:"dimension"`
	// Vectors is the number of live vectors of the generation; Considered
	// those that passed the filters with a positive similarity.
	Vectors    int `json:"vectors"`
	Considered int `json:"considered"`
	// Weight is the weight of the vector ranks (hybrid only).
	Weight *float64 `json:"weight,omitempty"`
}

// SemanticOptions configure the vector side of SearchWith.
type SemanticOptions struct {
	// Config is the [semantic] configuration; its Weight is the default
	// weight and its embedder the one that embeds the query.
	Config config.Semantic
	// Getenv resolves Config.APIKeyEnv.
	Getenv func(string) string
	// Embedder, when set, replaces the configured one.
	Embedder semantic.Embedder
}

func (req *SearchRequest) validMode() error {
	if err := choose(&req.Mode, "mode", ModeLexical, ModeSemantic, ModeHybrid); err != nil {
		return err
	}
	if w := req.SemanticWeight; w != nil && (math.IsNaN(*w) || *w < 0 || *w > 1) {
		return Errorf(CodeInvalidRequest, "the semantic weight must be between 0 and 1")
	}
	return nil
}

// SearchWith runs a search in the request's mode. Lexical searches the
// Bleve shards. Semantic ranks the generation's vectors (messages and
// summaries only) by similarity to the embedded query. Hybrid fuses the
// lexical and vector ranks by reciprocal rank fusion, the vector ranks
// weighted by the semantic weight and the lexical ones by one minus it.
// Both keep the filters, class weights and root-session grouping of lexical
// search. Hybrid falls back to lexical, saying why in metadata.fallback,
// when the scope is outside the semantic projection, semantic search is
// unavailable or the weight is zero; semantic fails with unsupported_mode or
// semantic_unavailable instead. Weight zero does no vector work at all.
func (r *Reader) SearchWith(ctx context.Context, req SearchRequest, so SemanticOptions) (*SearchResult, error) {
	start := time.Now()
	scope, err := req.Validate()
	if err != nil {
		return nil, err
	}
	out := newResult(r, req, scope)
	if err := r.resolveSelectors(req.Filter.SourceRoots, req.Filter.SourceGroups); err != nil {
		return nil, err
	}
	if err := r.checkProviders(req.Filter.Providers, ""); err != nil {
		return nil, err
	}
	if err := r.checkQueryFields(req.Query); err != nil {
		return nil, err
	}
	out.Metadata.RequestedMode, out.Metadata.Mode = req.Mode, req.Mode
	weight, err := planMode(&req, scope, so.Config, &out.Metadata)
	if err != nil {
		return nil, err
	}
	if found, err := r.machineSessions(&req.Filter); err != nil || !found {
		out.Metadata.Limit = req.Limit
		return out, err
	}
	var vs *vectorSide
	if out.Metadata.Mode != ModeLexical {
		if vs, err = r.vectors(ctx, req.Query, so); err != nil {
			if err = degrade(&out.Metadata, err); err != nil {
				return nil, err
			}
		} else {
			defer vs.ix.Close()
		}
	}
	hits, total, err := r.run(ctx, req, scope, vs, weight, &out.Metadata)
	if err != nil {
		return nil, err
	}
	if err := r.hydrate(out, hits); err != nil {
		return nil, err
	}
	out.Metadata.TotalMatches, out.Metadata.Returned, out.Metadata.Limit = total, len(out.Results), req.Limit
	out.Metadata.TookMS = time.Since(start).Milliseconds()
	return out, nil
}

// planMode decides, without any vector work, whether the request can use
// vectors: it returns the semantic weight, sets a lexical fallback for
// hybrid and fails semantic-only requests that cannot be answered.
func planMode(req *SearchRequest, scope core.Scope, cfg config.Semantic, md *SearchMetadata) (float64, error) {
	if req.Mode == ModeLexical {
		return 0, nil
	}
	weight := cfg.Weight
	if req.SemanticWeight != nil {
		weight = *req.SemanticWeight
	}
	var eventType core.EventType
	if len(req.Filter.Types) == 1 {
		eventType = req.Filter.Types[0]
	}
	var reason, note string
	switch {
	case !inProjection(scope, eventType):
		if req.Mode == ModeSemantic {
			return 0, Errorf(CodeUnsupportedMode, "semantic search covers messages and summaries only: "+
				"search the %s scope in mode lexical or hybrid", scopeName(scope, string(eventType)))
		}
		reason, note = FallbackLexicalOnlyScope, "vectors cover messages and summaries only, so this scope is searched lexically"
	case !cfg.Enabled:
		reason, note = FallbackSemanticUnavailable, "semantic search is turned off ([semantic] enabled = false in config.toml)"
	case weight == 0:
		reason, note = FallbackWeightZero, "the semantic weight is 0, so no vector work was done"
	default:
		return weight, nil
	}
	if req.Mode == ModeSemantic {
		return 0, Errorf(CodeSemanticUnavailable, "%s", note)
	}
	md.Mode, md.Fallback = ModeLexical, &SearchFallback{From: req.Mode, To: ModeLexical, Reason: reason, Note: note}
	return 0, nil
}

// inProjection reports whether a scope or event type selects events that
// have vectors (messages and summaries).
func inProjection(scope core.Scope, eventType core.EventType) bool {
	if eventType != "" {
		c := eventType.Class()
		return c == core.ClassMessage || c == core.ClassSummary
	}
	return scope == core.ScopeAll || scope == core.ScopeTranscript
}

func scopeName(scope core.Scope, eventType string) string {
	if eventType != "" {
		return "event type " + eventType
	}
	return string(scope)
}

// errUnavailable marks why the vectors cannot be used.
type errUnavailable struct {
	note string
	err  error
}

func (e *errUnavailable) Error() string { return e.note }
func (e *errUnavailable) Unwrap() error { return e.err }

// degrade turns an unavailable vector side into a lexical fallback for a
// hybrid request (nil) or a semantic_unavailable error for a semantic one.
func degrade(md *SearchMetadata, err error) error {
	var u *errUnavailable
	if !errors.As(err, &u) {
		return err
	}
	if md.Mode == ModeSemantic {
		return &Error{Code: CodeSemanticUnavailable, Message: u.note, Err: u.err}
	}
	md.Mode = ModeLexical
	md.Fallback = &SearchFallback{From: ModeHybrid, To: ModeLexical, Reason: FallbackSemanticUnavailable, Note: u.note}
	return nil
}

// vectorSide is an opened vector index and the embedded query.
type vectorSide struct {
	ix *semantic.Index
	q  []float32
}

// vectors opens the pinned generation's vectors and embeds the query with a
// compatible embedder; every failure is an *errUnavailable.
func (r *Reader) vectors(ctx context.Context, query string, so SemanticOptions) (*vectorSide, error) {
	emb := so.Embedder
	if emb == nil {
		var err error
		if emb, err = semantic.NewEmbedder(so.Config, so.Getenv); err != nil {
			return nil, &errUnavailable{"the semantic configuration is invalid", err}
		}
	}
	ix, err := semantic.Open(store.At(r.home).Vectors(), r.id)
	switch {
	case errors.Is(err, semantic.ErrNotBuilt):
		return nil, &errUnavailable{"the vectors of this generation are not built yet (ctx import builds them)", err}
	case err != nil:
		return nil, &errUnavailable{"the vectors of this generation cannot be read (ctx import rebuilds them)", err}
	case !ix.Manifest.Compatible(emb):
		ix.Close()
		return nil, &errUnavailable{"the vectors were built by another embedder than the configured one (ctx import rebuilds them)", nil}
	}
	vecs, err := emb.Embed(ctx, []string{query})
	if err == nil && len(vecs) == 1 && len(vecs[0]) != ix.Manifest.Dim {
		err = semantic.ErrIncompatible
	}
	if err != nil {
		ix.Close()
		return nil, &errUnavailable{"the embedder could not embed the query", err}
	}
	return &vectorSide{ix: ix, q: vecs[0]}, nil
}

// run searches in md.Mode and returns the grouped hits and the total.
func (r *Reader) run(ctx context.Context, req SearchRequest, scope core.Scope, vs *vectorSide, weight float64,
	md *SearchMetadata) ([]core.Hit, uint64, error) {
	if md.Mode == ModeLexical {
		res, err := r.lexical(ctx, req, scope, req.Limit)
		md.Match, md.Partial, md.TotalRelation = res.Match, partialOf(res.Damaged, len(r.gen.Shards)), relation(res)
		return res.Hits, res.Total, err
	}
	window := max(candidateFactor*req.Limit, minCandidates)
	if md.Mode == ModeHybrid {
		window = min(max(fuseFactor*req.Limit, minFuse), index.MaxLimit)
	}
	vec, considered, err := vectorHits(ctx, vs, req, scope, window)
	if err != nil {
		return nil, 0, err
	}
	md.Semantic = &SemanticInfo{Embedder: vs.ix.Manifest.Embedder, Dimension: vs.ix.Manifest.Dim,
		Vectors: vs.ix.Len(), Considered: considered}
	if md.Mode == ModeSemantic {
		md.TotalRelation = TotalEq
		return core.GroupHits(vec, req.Limit), uint64(considered), nil
	}
	md.Semantic.Weight = &weight
	lex, err := r.lexical(ctx, req, scope, window)
	if err != nil {
		return nil, 0, err
	}
	md.Match, md.Partial, md.TotalRelation = lex.Match, partialOf(lex.Damaged, len(r.gen.Shards)), relation(lex)
	return core.GroupHits(fuse(lex.Hits, vec, weight), req.Limit), lex.Total, nil
}

// Values of SearchMetadata.TotalRelation.
const (
	TotalEq  = "eq"
	TotalGTE = "gte"
)

// Total says TotalMatches in words: "12", or "at least 3075" when it is a
// lower bound.
func (md SearchMetadata) Total() string {
	if md.TotalRelation == TotalGTE {
		return fmt.Sprintf("at least %d", md.TotalMatches)
	}
	return strconv.FormatUint(md.TotalMatches, 10)
}

func relation(res index.Result) string {
	if res.TotalExact {
		return TotalEq
	}
	return TotalGTE
}

// Candidate windows: semantic search groups the best max(5×limit, 100)
// vector matches (as the index does with lexical candidates); hybrid fuses
// the best max(3×limit, 50) of each list.
const (
	candidateFactor = 5
	minCandidates   = 100
	fuseFactor      = 3
	minFuse         = 50
)

// vectorHits returns the best n vector matches under the request's filters
// as hits, scored by similarity times the scope's class weight, best first.
func vectorHits(ctx context.Context, vs *vectorSide, req SearchRequest, scope core.Scope, n int) ([]core.Hit, int, error) {
	res, err := vs.ix.Search(ctx, vs.q, &req.Filter, n)
	if err != nil {
		return nil, 0, &Error{Code: CodeIndex, Message: "vector search failed", Err: err}
	}
	hits := res.Matches[:0]
	for _, m := range res.Matches {
		w, ok := scope.Weight(m.EventType)
		if !ok {
			continue
		}
		m.Score *= w
		hits = append(hits, m)
	}
	core.SortHits(hits)
	return hits, res.Considered, nil
}

// fuse merges two ranked lists by weighted reciprocal rank fusion: a hit
// scores (1-w)/(RRFK+lexical rank) + w/(RRFK+vector rank), each term only
// for the lists it is in. The result is sorted best first.
func fuse(lex, vec []core.Hit, w float64) []core.Hit {
	at := make(map[core.EventID]int, len(lex)+len(vec))
	out := make([]core.Hit, 0, len(lex)+len(vec))
	add := func(list []core.Hit, weight float64) {
		for rank, h := range list {
			s := weight / float64(RRFK+rank+1)
			if i, ok := at[h.EventID]; ok {
				out[i].Score += s
				continue
			}
			at[h.EventID] = len(out)
			h.Score, h.Partial = s, false
			out = append(out, h)
		}
	}
	add(lex, 1-w)
	add(vec, w)
	core.SortHits(out)
	return out
}
