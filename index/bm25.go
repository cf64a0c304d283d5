package index

import (
	"context"
	"math"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// BM25 parameters. refLength is the field length (in analyzed tokens, the
// code analyzer's extra forms included) that length normalisation is
// relative to: a fixed reference instead of a per-shard average, so that a
// document's score never depends on which shards hold the generation.
const (
	bm25K1    = 1.2
	bm25B     = 0.75
	refLength = 96.0
)

// stats are the collection statistics of a generation's shards taken
// together: the document count, and per query the document frequency of
// each term summed over every shard. Scores computed from them are the same
// whichever shard a document sits in and however the shards were cut.
type stats struct {
	docs float64
}

// idf is the BM25 inverse document frequency of a term held by df of the
// docs documents.
func (s stats) idf(df uint64) float64 {
	n, f := s.docs, float64(df)
	return math.Log(1 + (n-f+0.5)/(f+0.5))
}

// bm25Query matches one term of a field and scores each document with BM25
// from the generation's global statistics (idf precomputed by the Reader)
// times boost. It bypasses bleve's own scoring, whose idf, average length
// and query norm are per shard.
type bm25Query struct {
	field string
	term  string
	idf   float64
	boost float64
}

func (q *bm25Query) Searcher(ctx context.Context, r bleveindex.IndexReader, _ mapping.IndexMapping,
	_ search.SearcherOptions) (search.Searcher, error) {
	tfr, err := r.TermFieldReader(ctx, []byte(q.term), q.field, true, true, false)
	if err != nil {
		return nil, err
	}
	return &bm25Searcher{tfr: tfr, weight: q.idf * q.boost, tfd: &bleveindex.TermFieldDoc{}}, nil
}

// bm25Searcher walks one term's postings in one shard.
type bm25Searcher struct {
	tfr    bleveindex.TermFieldReader
	weight float64
	tfd    *bleveindex.TermFieldDoc
}

func (s *bm25Searcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	tm, err := s.tfr.Next(s.tfd.Reset())
	if err != nil || tm == nil {
		return nil, err
	}
	return s.match(ctx, tm), nil
}

func (s *bm25Searcher) Advance(ctx *search.SearchContext, id bleveindex.IndexInternalID) (*search.DocumentMatch, error) {
	tm, err := s.tfr.Advance(id, s.tfd.Reset())
	if err != nil || tm == nil {
		return nil, err
	}
	return s.match(ctx, tm), nil
}

// match scores a posting: the norm bleve stores is 1/sqrt(field length).
func (s *bm25Searcher) match(ctx *search.SearchContext, tm *bleveindex.TermFieldDoc) *search.DocumentMatch {
	dm := ctx.DocumentMatchPool.Get()
	dm.IndexInternalID = bleveindex.NewIndexInternalIDFrom(dm.IndexInternalID, tm.ID)
	dm.Score = s.weight * bm25TF(float64(tm.Freq), fieldLength(tm.Norm))
	return dm
}

// bm25TF is the term-frequency part of BM25 for a field of length dl.
func bm25TF(tf, dl float64) float64 {
	return tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/refLength))
}

func fieldLength(norm float64) float64 {
	if norm <= 0 || math.IsNaN(norm) {
		return refLength
	}
	return 1 / (norm * norm)
}

func (s *bm25Searcher) Close() error               { return s.tfr.Close() }
func (s *bm25Searcher) Weight() float64            { return 1 }
func (s *bm25Searcher) SetQueryNorm(float64)       {}
func (s *bm25Searcher) Count() uint64              { return s.tfr.Count() }
func (s *bm25Searcher) Min() int                   { return 0 }
func (s *bm25Searcher) Size() int                  { return 64 + s.tfr.Size() }
func (s *bm25Searcher) DocumentMatchPoolSize() int { return 1 }

// constQuery gives every document the inner query matches the same score:
// exact-identifier clauses (an event id, a session id, a touched file) that
// must rank a document first whatever bleve's per-shard statistics say.
type constQuery struct {
	inner query.Query
	score float64
}

func (q *constQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping,
	o search.SearcherOptions) (search.Searcher, error) {
	s, err := q.inner.Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	return &constSearcher{Searcher: s, score: q.score}, nil
}

type constSearcher struct {
	search.Searcher
	score float64
}

func (s *constSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Next(ctx)
	if dm != nil {
		dm.Score = s.score
	}
	return dm, err
}

func (s *constSearcher) Advance(ctx *search.SearchContext, id bleveindex.IndexInternalID) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Advance(ctx, id)
	if dm != nil {
		dm.Score = s.score
	}
	return dm, err
}

func (s *constSearcher) Weight() float64      { return 1 }
func (s *constSearcher) SetQueryNorm(float64) {}

// formsQuery matches any of the forms of one word (the term as typed, its
// folded form, its inflections) and scores a document with the sum of the
// forms it holds. Unlike a bleve disjunction it applies no coordination
// factor, so a document holding the word in one form is not scored down
// for lacking the others. alts are further clauses that stand for a form
// the index does not hold (the words of a folded identifier).
type formsQuery struct {
	forms []*bm25Query
	alts  []query.Query
}

func (q *formsQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping,
	o search.SearcherOptions) (search.Searcher, error) {
	s := &formsSearcher{}
	clauses := make([]query.Query, 0, len(q.forms)+len(q.alts))
	for _, f := range q.forms {
		clauses = append(clauses, f)
	}
	for _, f := range append(clauses, q.alts...) {
		c, err := f.Searcher(ctx, r, m, o)
		if err != nil {
			_ = s.Close()
			return nil, err
		}
		s.children = append(s.children, c)
	}
	s.cur = make([]*search.DocumentMatch, len(s.children))
	return s, nil
}

// formsSearcher merges its children's postings by document, in order.
type formsSearcher struct {
	children []search.Searcher
	cur      []*search.DocumentMatch // each child's current match; nil when done
	started  bool
}

func (s *formsSearcher) init(ctx *search.SearchContext) error {
	if s.started {
		return nil
	}
	s.started = true
	for i, c := range s.children {
		dm, err := c.Next(ctx)
		if err != nil {
			return err
		}
		s.cur[i] = dm
	}
	return nil
}

// emit returns the lowest current document with the summed score of the
// children on it, moving those children on.
func (s *formsSearcher) emit(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	var low bleveindex.IndexInternalID
	for _, dm := range s.cur {
		if dm != nil && (low == nil || dm.IndexInternalID.Compare(low) < 0) {
			low = dm.IndexInternalID
		}
	}
	if low == nil {
		return nil, nil
	}
	var out *search.DocumentMatch
	for i, dm := range s.cur {
		if dm == nil || !dm.IndexInternalID.Equals(low) {
			continue
		}
		if out == nil {
			out = dm
		} else {
			out.Score += dm.Score
			ctx.DocumentMatchPool.Put(dm)
		}
		next, err := s.children[i].Next(ctx)
		if err != nil {
			return nil, err
		}
		s.cur[i] = next
	}
	return out, nil
}

func (s *formsSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	if err := s.init(ctx); err != nil {
		return nil, err
	}
	return s.emit(ctx)
}

func (s *formsSearcher) Advance(ctx *search.SearchContext, id bleveindex.IndexInternalID) (*search.DocumentMatch, error) {
	if err := s.init(ctx); err != nil {
		return nil, err
	}
	for i, dm := range s.cur {
		if dm == nil || dm.IndexInternalID.Compare(id) >= 0 {
			continue
		}
		ctx.DocumentMatchPool.Put(dm)
		next, err := s.children[i].Advance(ctx, id)
		if err != nil {
			return nil, err
		}
		s.cur[i] = next
	}
	return s.emit(ctx)
}

func (s *formsSearcher) Close() error {
	var first error
	for _, c := range s.children {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (s *formsSearcher) Count() uint64 {
	var n uint64
	for _, c := range s.children {
		n += c.Count()
	}
	return n
}

func (s *formsSearcher) Weight() float64            { return 1 }
func (s *formsSearcher) SetQueryNorm(float64)       {}
func (s *formsSearcher) Min() int                   { return 0 }
func (s *formsSearcher) DocumentMatchPoolSize() int { return len(s.children) + 1 }
func (s *formsSearcher) Size() int {
	n := 64
	for _, c := range s.children {
		n += c.Size()
	}
	return n
}
