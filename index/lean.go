package index

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zapx "github.com/blevesearch/zapx/v17"
)

// The first stage of text searches, without bleve's searchers.
//
// A search's first stage asks for the best groups of every shard and how
// many match (collector.groups). Bleve answers with a stack of searchers
// that hands a pooled DocumentMatch up through the forms of each word, the
// conjunction or disjunction and the collector for every posting of every
// form, and on a store of a million events that stack, not the postings,
// was most of the cost: walking the same postings, scoring and keeping the
// best took about a third of the CPU (docs/benchmarks.md, "The first stage
// without bleve's searchers").
//
// leanGroups runs the query over each shard's segment itself, as a tree
// of the clauses a search compiles (compile): a term scored by BM25
// (bm25Query), a word's forms (formsQuery), a fixed score (constQuery) over
// exact terms of any field, conjunctions and disjunctions. It answers what
// bleve would, bit for bit: the same documents, the same total, and the
// same scores, summed in the order bleve sums them (a word's forms in their
// order; a conjunction's and a disjunction's clauses by their postings
// count in the shard, as bleve sorts its searchers; a disjunction's sum
// times the share of its clauses matched). A conjunction is walked from its
// rarest clause, the others advanced to its documents. A
// disjunction of more than maxLeanOr clauses (which bleve sums in a heap's
// order), a page past the first, a shard of several segments, and any
// error leave the request to bleve. A search's filters are read by
// bleve's own searcher of them, advanced to each match, as bleve's
// BooleanQuery does.

// leanFirstStage turns leanGroups on; tests turn it off to compare.
var leanFirstStage = true

// maxLeanOr is the most clauses of a disjunction leanGroups runs: bleve
// sums a disjunction of more (searcher.DisjunctionHeapTakeover) in the
// order of a heap, which the lean stage does not follow.
const maxLeanOr = 10

// leanable reports whether leanGroups can run q: clauses it knows, and an
// exact term only under a fixed score (bleve scores a bare one its own
// way).
func leanable(q query.Query, scored bool) bool {
	switch q := q.(type) {
	case *bm25Query:
		return true
	case *formsQuery:
		return len(q.forms) > 0 && every(q.alts, scored)
	case *constQuery:
		return leanable(q.inner, false)
	case *query.TermQuery:
		return !scored && q.Field() != ""
	case *query.ConjunctionQuery:
		return len(q.Conjuncts) > 0 && every(q.Conjuncts, scored)
	case *query.DisjunctionQuery:
		return len(q.Disjuncts) > 0 && len(q.Disjuncts) <= maxLeanOr && q.Min <= 1 && every(q.Disjuncts, scored)
	case *query.BooleanQuery: // a search's filters (withFilters), which bleve's own searcher reads
		return q.Must != nil && q.Should == nil && q.MustNot == nil && q.BoostVal == nil && leanable(q.Must, scored)
	}
	return false
}

// every reports whether leanGroups can run each of qs.
func every(qs []query.Query, scored bool) bool {
	for _, q := range qs {
		if !leanable(q, scored) {
			return false
		}
	}
	return true
}

// leanHit is a matched document of a shard's segment.
type leanHit struct {
	score float64
	num   uint64
}

// leanGroups returns the n best groups of the shards for q (leanable) and
// how many match, as bleve's request of size n from 0 would; ok is false
// when a shard could not be read this way (bleve then answers, and reports
// it).
func (c *collector) leanGroups(ctx context.Context, q query.Query, n int) (*bleve.SearchResult, bool) {
	shards := c.r.shards
	snaps := make([]*scorch.IndexSnapshot, len(shards))
	for i, sh := range shards {
		rdr, err := c.loader.reader(sh)
		if err != nil {
			return nil, false
		}
		if snaps[i], _ = rdr.(*scorch.IndexSnapshot); snaps[i] == nil {
			return nil, false
		}
	}
	type answer struct {
		hits  []leanHit
		total uint64
		err   error
	}
	answers := make([]answer, len(shards))
	var wg sync.WaitGroup
	next := make(chan int, len(shards))
	for i := range shards {
		next <- i
	}
	close(next)
	for range min(len(shards), runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				a := &answers[i]
				a.err = onMappedPages(shards[i], "search", func() error {
					var err error
					a.hits, a.total, err = leanShard(ctx, snaps[i], c.r.idxs[c.r.order[shards[i]]].Mapping(), q, n)
					return err
				})
			}
		}()
	}
	wg.Wait()
	res := &bleve.SearchResult{Status: &bleve.SearchStatus{Total: len(shards), Successful: len(shards)}}
	type ranked struct {
		score float64
		shard int
		hit   leanHit
	}
	var all []ranked
	for i, a := range answers {
		if a.err != nil {
			return nil, false
		}
		res.Total += a.total
		for _, h := range a.hits {
			all = append(all, ranked{h.score, i, h})
		}
	}
	slices.SortFunc(all, func(a, b ranked) int { return cmp.Compare(b.score, a.score) })
	all = all[:min(n, len(all))]
	for _, h := range all {
		var id []byte
		err := onMappedPages(shards[h.shard], "search", func() (err error) {
			id, err = snaps[h.shard].Segments()[0].DocID(h.hit.num)
			return err
		})
		if err != nil {
			return nil, false
		}
		res.Hits = append(res.Hits, &search.DocumentMatch{Index: shards[h.shard], ID: string(id), Score: h.score})
		res.MaxScore = max(res.MaxScore, h.score)
	}
	return res, true
}

// leanIter walks the postings of one form in one segment. A posting's
// frequency and length are kept, and scored only when its document holds
// every word: most postings of a conjunction's common words are passed
// over, and scoring each was as much as walking it.
type leanIter struct {
	it     segment.PostingsIterator
	weight float64
	fixed  bool   // the score is weight (constSearcher's)
	doc    uint64 // the current posting's document
	freq   uint64
	bits   uint64  // the field length zap stores (zapNorm); with norm unset
	norm   float64 // the posting's Norm, when not computed from bits
	eager  bool    // the postings are not zap's, or zapNorm is not their Norm
	done   bool
}

func (it *leanIter) set(p segment.Posting) {
	if p == nil {
		it.done = true
		return
	}
	if zp, ok := p.(*zapx.Posting); ok && !it.eager {
		it.doc, it.freq, it.bits = zp.Number(), zp.Frequency(), zp.NormUint64()
		return
	}
	it.doc, it.freq, it.norm = p.Number(), p.Frequency(), p.Norm()
	it.eager = true
}

// zapNorm is zap's Posting.Norm of a field of length bits (NormUint64):
// computed only for the postings scored. check compares the two on the
// first posting of each form, so a zap whose Norm differs is read eagerly.
func zapNorm(bits uint64) float64 { return float64(float32(1.0 / math.Sqrt(float64(bits)))) }

// check reads the form's first posting eagerly too, and keeps reading
// eagerly when zapNorm does not give its Norm bit for bit.
func (it *leanIter) check(p segment.Posting) {
	if zp, ok := p.(*zapx.Posting); ok && math.Float64bits(zapNorm(zp.NormUint64())) != math.Float64bits(zp.Norm()) {
		it.eager = true
	}
}

// score is the form's BM25 on its current document, as bm25Searcher (or
// constSearcher) scores it.
func (it *leanIter) score() float64 {
	switch {
	case it.fixed:
		return it.weight
	case it.eager:
		return it.weight * bm25TF(float64(it.freq), fieldLength(it.norm))
	}
	return it.weight * bm25TF(float64(it.freq), fieldLength(zapNorm(it.bits)))
}

// first reads the form's first posting.
func (it *leanIter) first() error {
	p, err := it.it.Next()
	if p != nil {
		it.check(p)
	}
	it.set(p)
	return err
}

// advance moves the form to its first document at or after doc.
func (it *leanIter) advance(doc uint64) error {
	if it.done || it.doc >= doc {
		return nil
	}
	p, err := it.it.Advance(doc)
	it.set(p)
	return err
}

// leanNode is a clause of a query over one segment. seek moves it to its
// first match at or after doc (where it stays while later seeks ask for no
// more); score is its score on the document seek returned; count is its
// postings count as bleve's searcher of the clause reports it, by which a
// conjunction or a disjunction orders its clauses.
type leanNode interface {
	seek(doc uint64) (uint64, bool, error)
	score(doc uint64) float64
	count() uint64
}

// leanTerm is one term's postings: scored by BM25 (bm25Query), or left
// unscored under a fixed score.
type leanTerm struct {
	leanIter
	n uint64
}

func (t *leanTerm) seek(doc uint64) (uint64, bool, error) {
	err := t.advance(doc)
	return t.doc, !t.done, err
}

func (t *leanTerm) score(uint64) float64 { return t.leanIter.score() }
func (t *leanTerm) count() uint64        { return t.n }

// leanAny matches where any of its kids does: a word's forms (as
// formsSearcher: their scores on the document summed in order) or a
// disjunction (as bleve's: that sum times the share of the kids matched).
type leanAny struct {
	kids  []leanNode
	at    []uint64 // each kid's match, when on
	on    []bool
	coord bool
}

func newAny(kids []leanNode, coord bool) *leanAny {
	return &leanAny{kids: kids, at: make([]uint64, len(kids)), on: make([]bool, len(kids)), coord: coord}
}

func (a *leanAny) seek(doc uint64) (uint64, bool, error) {
	var low uint64
	found := false
	for i, k := range a.kids {
		if !a.on[i] || a.at[i] < doc {
			d, ok, err := k.seek(doc)
			if err != nil {
				return 0, false, err
			}
			a.at[i], a.on[i] = d, ok
		}
		if a.on[i] && (!found || a.at[i] < low) {
			low, found = a.at[i], true
		}
	}
	return low, found, nil
}

func (a *leanAny) score(doc uint64) float64 {
	var s float64
	matched := 0
	for i, k := range a.kids {
		if a.on[i] && a.at[i] == doc {
			s += k.score(doc)
			matched++
		}
	}
	if a.coord {
		return s * (float64(matched) / float64(len(a.kids)))
	}
	return s
}

func (a *leanAny) count() uint64 { return sumCounts(a.kids) }

// leanAll is a conjunction: a document every kid matches, their scores
// summed. The kids are in count order, so the rarest leads.
type leanAll struct{ kids []leanNode }

func (c *leanAll) seek(doc uint64) (uint64, bool, error) {
	for {
		agreed := true
		for _, k := range c.kids {
			d, ok, err := k.seek(doc)
			if err != nil || !ok {
				return 0, false, err
			}
			if d > doc {
				doc, agreed = d, false
				break
			}
		}
		if agreed {
			return doc, true, nil
		}
	}
}

func (c *leanAll) score(doc uint64) float64 {
	var s float64
	for _, k := range c.kids {
		s += k.score(doc)
	}
	return s
}

func (c *leanAll) count() uint64 { return sumCounts(c.kids) }

// leanFixed gives its clause's matches one score (constSearcher).
type leanFixed struct {
	leanNode
	fixed float64
}

func (f *leanFixed) score(uint64) float64 { return f.fixed }

func sumCounts(kids []leanNode) uint64 {
	var n uint64
	for _, k := range kids {
		n += k.count()
	}
	return n
}

// byCount orders clauses by their postings count, as bleve's conjunction
// and disjunction order their searchers (sort.Sort of the same list with
// the same comparison gives the same order, ties included).
type byCount []leanNode

func (b byCount) Len() int           { return len(b) }
func (b byCount) Less(i, j int) bool { return b[i].count() < b[j].count() }
func (b byCount) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

// leanSegment builds the clauses of a query over one segment: the shard's
// snapshot and mapping read its filters with bleve's searchers.
type leanSegment struct {
	ss      *scorch.SegmentSnapshot
	dicts   map[string]segment.TermDictionary
	ctx     context.Context
	snap    *scorch.IndexSnapshot
	mapping mapping.IndexMapping
	closers []search.Searcher
}

// close closes the filters' searchers.
func (b *leanSegment) close() {
	for _, s := range b.closers {
		_ = s.Close()
	}
}

// errNotLean is a clause the lean stage does not run (leanable keeps
// such queries from it).
var errNotLean = errors.New("index: a clause the lean first stage does not run")

func (b *leanSegment) node(q query.Query) (leanNode, error) {
	switch q := q.(type) {
	case *bm25Query:
		return b.term(q.field, q.term, q.idf*q.boost, true)
	case *query.TermQuery:
		return b.term(q.Field(), q.Term, 0, false)
	case *constQuery:
		k, err := b.node(q.inner)
		if err != nil {
			return nil, err
		}
		return &leanFixed{leanNode: k, fixed: q.score}, nil
	case *formsQuery:
		kids := make([]query.Query, 0, len(q.forms)+len(q.alts))
		for _, f := range q.forms {
			kids = append(kids, f)
		}
		nodes, err := b.nodes(append(kids, q.alts...))
		if err != nil {
			return nil, err
		}
		return newAny(nodes, false), nil
	case *query.ConjunctionQuery:
		kids, err := b.nodes(q.Conjuncts)
		if err != nil {
			return nil, err
		}
		sort.Sort(byCount(kids))
		return &leanAll{kids: kids}, nil
	case *query.DisjunctionQuery:
		kids, err := b.nodes(q.Disjuncts)
		if err != nil {
			return nil, err
		}
		sort.Sort(byCount(kids))
		return newAny(kids, true), nil
	case *query.BooleanQuery:
		must, err := b.node(q.Must)
		if err != nil || q.Filter == nil {
			return must, err
		}
		// As bleve's BooleanQuery: the filter's searcher scores nothing and
		// is advanced to each match of the clauses it filters.
		fs, err := q.Filter.Searcher(b.ctx, b.snap, b.mapping, search.SearcherOptions{Score: "none"})
		if err != nil {
			return nil, err
		}
		b.closers = append(b.closers, fs)
		return &leanFiltered{leanNode: must, filter: fs,
			sctx: &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(fs.DocumentMatchPoolSize(), 0)}}, nil
	}
	return nil, errNotLean
}

// leanFiltered keeps the matches of its clause that its filter (a bleve
// searcher) matches too; the score is the clause's.
type leanFiltered struct {
	leanNode
	filter search.Searcher
	sctx   *search.SearchContext
	cur    *search.DocumentMatch // the filter's current document; nil when done
	begun  bool
	id     bleveindex.IndexInternalID
}

func (f *leanFiltered) seek(doc uint64) (uint64, bool, error) {
	for {
		d, ok, err := f.leanNode.seek(doc)
		if err != nil || !ok {
			return 0, false, err
		}
		if !f.begun {
			f.begun = true
			if f.cur, err = f.filter.Next(f.sctx); err != nil {
				return 0, false, err
			}
		}
		if f.cur != nil && f.cur.IndexInternalID.Value() < d {
			f.sctx.DocumentMatchPool.Put(f.cur)
			f.id = bleveindex.NewIndexInternalID(f.id, d)
			if f.cur, err = f.filter.Advance(f.sctx, f.id); err != nil {
				return 0, false, err
			}
		}
		if f.cur == nil {
			return 0, false, nil
		}
		at := f.cur.IndexInternalID.Value()
		if at == d {
			return d, true, nil
		}
		doc = at
	}
}

func (b *leanSegment) nodes(qs []query.Query) ([]leanNode, error) {
	out := make([]leanNode, 0, len(qs))
	for _, q := range qs {
		k, err := b.node(q)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// term reads the postings of one term of a field from the first.
func (b *leanSegment) term(field, term string, weight float64, scored bool) (leanNode, error) {
	dict, ok := b.dicts[field]
	if !ok {
		var err error
		if dict, err = b.ss.Segment().Dictionary(field); err != nil {
			return nil, err
		}
		b.dicts[field] = dict
	}
	pl, err := dict.PostingsList([]byte(term), b.ss.Deleted(), nil)
	if err != nil {
		return nil, err
	}
	t := &leanTerm{leanIter: leanIter{it: pl.Iterator(scored, scored, false, nil), weight: weight, fixed: !scored},
		n: pl.Count()}
	return t, t.first()
}

// errManySegments leaves to bleve a shard of more than one segment: a
// build merges each shard into one (newBuilder), so the lean stage reads
// that one alone.
var errManySegments = errors.New("index: the lean first stage reads shards of one segment")

// leanShard returns the n best documents of a shard of one segment for q,
// with the number that match.
func leanShard(ctx context.Context, snap *scorch.IndexSnapshot, m mapping.IndexMapping, q query.Query, n int) ([]leanHit, uint64, error) {
	segs := snap.Segments()
	if len(segs) != 1 {
		return nil, 0, errManySegments
	}
	seg := &leanSegment{ss: segs[0], dicts: map[string]segment.TermDictionary{}, ctx: ctx, snap: snap, mapping: m}
	defer seg.close()
	top, err := seg.node(q)
	if err != nil {
		return nil, 0, err
	}
	var best leanHeap
	var total, doc uint64
	for {
		d, ok, err := top.seek(doc)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			return best, total, nil
		}
		total++
		best.offer(leanHit{score: top.score(d), num: d}, n)
		if total%4096 == 0 && ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		doc = d + 1
	}
}

// leanHeap keeps the best hits, the worst first (container/heap).
type leanHeap []leanHit

// offer keeps x if it is among the n best offered.
func (h *leanHeap) offer(x leanHit, n int) {
	switch {
	case len(*h) < n:
		heap.Push(h, x)
	case n > 0 && x.score > (*h)[0].score:
		(*h)[0] = x
		heap.Fix(h, 0)
	}
}

func (h leanHeap) Len() int           { return len(h) }
func (h leanHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h leanHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *leanHeap) Push(x any)        { *h = append(*h, x.(leanHit)) }
func (h *leanHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
