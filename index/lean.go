package index

import (
	"cmp"
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zapx "github.com/blevesearch/zapx/v17"
)

// The first stage of most text searches, without bleve's searchers.
//
// A search's first stage asks for the best groups of every shard and how
// many match (collector.groups). Its query is most often a plain one:
// every word required, each word the sum of its forms' BM25 (bm25Query,
// formsQuery, with a folded identifier's fixed-score alternative). Bleve
// answers it with a stack of searchers that hands a pooled DocumentMatch
// up through the forms, the conjunction and the collector for every
// posting of every form, and on a store of a million events that stack,
// not the postings, was most of the cost: walking the same postings,
// scoring and keeping the best took about a third of the CPU
// (docs/benchmarks.md, "The first stage without bleve's searchers").
//
// leanGroups runs that query over each shard's segment itself: the rarest
// word's forms lead and the others are advanced to its documents, and a
// document that holds every word is scored and counted. It answers what
// bleve would, bit for bit: the same documents, the same total, and the
// same scores, summed in the order bleve sums them (a word's forms in
// their order, the words by their postings count in the shard, as bleve's
// conjunction orders its searchers). The broad query, which a search asks
// when too few groups hold every word, is walked the same way for groups
// holding any word and scored as bleve's disjunction scores them (see
// leanUnion). Any other shape of query (exact identifiers, filters, a
// broad query of more than maxLeanAny words), a page past the first, a
// shard of several segments, and any error leave the request to bleve.

// leanFirstStage turns leanGroups on; tests turn it off to compare.
var leanFirstStage = true

// leanForm is one form of a word: its term and the weight of its BM25,
// or the fixed score of an alternative (a folded identifier's words
// joined by underscores, see clauseBuilder.term).
type leanForm struct {
	term   []byte
	weight float64
	fixed  bool
}

// leanPlan is a query leanGroups can run: its words, each as its forms,
// and whether a group needs any of them (the broad query, scored as
// bleve's disjunction) or every one.
type leanPlan struct {
	words [][]leanForm
	any   bool
}

// maxLeanAny is the most words of a broad query leanGroups runs: bleve
// sums a disjunction of more (DisjunctionHeapTakeover) in the order of a
// heap, which the lean stage does not follow.
const maxLeanAny = 10

// leanPlanOf returns the plan of a query leanGroups can run, or nil.
func leanPlanOf(q query.Query) *leanPlan {
	p := &leanPlan{}
	if d, ok := q.(*query.DisjunctionQuery); ok {
		switch {
		case d.Min > 1 || len(d.Disjuncts) == 0 || len(d.Disjuncts) > maxLeanAny:
			return nil
		case len(d.Disjuncts) == 1: // the narrow query: its conjunction alone
			q = d.Disjuncts[0]
		default: // the broad query: any word
			p.any = true
		}
	}
	words := &p.words
	add := func(q query.Query) bool {
		switch q := q.(type) {
		case *bm25Query:
			if q.field != fieldText {
				return false
			}
			*words = append(*words, []leanForm{{term: []byte(q.term), weight: q.idf * q.boost}})
			return true
		case *formsQuery:
			if len(q.forms) == 0 {
				return false
			}
			w := make([]leanForm, 0, len(q.forms)+len(q.alts))
			for _, f := range q.forms {
				if f.field != fieldText {
					return false
				}
				w = append(w, leanForm{term: []byte(f.term), weight: f.idf * f.boost})
			}
			for _, a := range q.alts {
				c, ok := a.(*constQuery)
				if !ok {
					return false
				}
				t, ok := c.inner.(*query.TermQuery)
				if !ok || t.Field() != fieldText {
					return false
				}
				w = append(w, leanForm{term: []byte(t.Term), weight: c.score, fixed: true})
			}
			*words = append(*words, w)
			return true
		}
		return false
	}
	var clauses []query.Query
	switch c := q.(type) {
	case *query.DisjunctionQuery:
		clauses = c.Disjuncts
	case *query.ConjunctionQuery:
		clauses = c.Conjuncts
	default:
		clauses = []query.Query{q}
	}
	if len(clauses) == 0 {
		return nil
	}
	for _, k := range clauses {
		if !add(k) {
			return nil
		}
	}
	return p
}

// leanHit is a matched document of a shard's segment.
type leanHit struct {
	score float64
	num   uint64
}

// leanGroups returns the n best groups of the shards for words and how
// many match, as bleve's request of size n from 0 would; ok is false when
// a shard could not be read this way (bleve then answers, and reports it).
func (c *collector) leanGroups(ctx context.Context, plan *leanPlan, n int) (*bleve.SearchResult, bool) {
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
					a.hits, a.total, err = leanShard(ctx, snaps[i], plan, n)
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

func (it *leanIter) next() error {
	p, err := it.it.Next()
	it.set(p)
	return err
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

// leanWord is one word's forms in one segment.
type leanWord []*leanIter

// low returns the word's first document, or false when its forms are done.
func (w leanWord) low() (uint64, bool) {
	var doc uint64
	ok := false
	for _, it := range w {
		if !it.done && (!ok || it.doc < doc) {
			doc, ok = it.doc, true
		}
	}
	return doc, ok
}

// step moves the forms on doc to their next documents.
func (w leanWord) step(doc uint64) error {
	for _, it := range w {
		if !it.done && it.doc == doc {
			if err := it.next(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w leanWord) advance(doc uint64) error {
	for _, it := range w {
		if err := it.advance(doc); err != nil {
			return err
		}
	}
	return nil
}

// score sums the scores of the forms on doc in their order, as
// formsSearcher does.
func (w leanWord) score(doc uint64) float64 {
	var s float64
	for _, it := range w {
		if !it.done && it.doc == doc {
			s += it.score()
		}
	}
	return s
}

// byCount orders a shard's words by their postings count, as bleve's
// conjunction orders its searchers (sort.Sort of the same list with the
// same comparison gives the same order, ties included).
type byCount struct {
	order  []int
	counts []uint64
}

func (b byCount) Len() int           { return len(b.order) }
func (b byCount) Less(i, j int) bool { return b.counts[b.order[i]] < b.counts[b.order[j]] }
func (b byCount) Swap(i, j int)      { b.order[i], b.order[j] = b.order[j], b.order[i] }

// errManySegments leaves to bleve a shard of more than one segment: a
// build merges each shard into one (newBuilder), so the lean stage reads
// that one alone.
var errManySegments = errors.New("index: the lean first stage reads shards of one segment")

// leanShard returns the n best documents of a shard of one segment for
// plan, with the number that match.
func leanShard(ctx context.Context, snap *scorch.IndexSnapshot, plan *leanPlan, n int) ([]leanHit, uint64, error) {
	words := plan.words
	segs := snap.Segments()
	if len(segs) != 1 {
		return nil, 0, errManySegments
	}
	ss := segs[0]
	dict, err := ss.Segment().Dictionary(fieldText)
	if err != nil {
		return nil, 0, err
	}
	lists := make([][]segment.PostingsList, len(words)) // by word and form
	counts := make([]uint64, len(words))
	for w, forms := range words {
		for _, f := range forms {
			pl, err := dict.PostingsList(f.term, ss.Deleted(), nil)
			if err != nil {
				return nil, 0, err
			}
			lists[w] = append(lists[w], pl)
			counts[w] += pl.Count()
		}
	}
	order := byCount{order: make([]int, len(words)), counts: counts}
	for i := range order.order {
		order.order[i] = i
	}
	if len(words) > 1 {
		sort.Sort(order)
	}
	ws := make([]leanWord, len(words))
	for k, w := range order.order {
		for f, pl := range lists[w] {
			form := words[w][f]
			it := &leanIter{it: pl.Iterator(!form.fixed, !form.fixed, false, nil), weight: form.weight, fixed: form.fixed}
			if err := it.first(); err != nil {
				return nil, 0, err
			}
			ws[k] = append(ws[k], it)
		}
	}
	var best leanHeap
	walk := leanSegment
	if plan.any {
		walk = leanUnion
	}
	total, err := walk(ctx, ws, n, &best)
	if err != nil {
		return nil, 0, err
	}
	return best, total, nil
}

// leanSegment walks a segment's words (the rarest first) and keeps the n
// best matches in best; it returns how many documents matched.
func leanSegment(ctx context.Context, ws []leanWord, n int, best *leanHeap) (uint64, error) {
	var total uint64
	doc, ok := ws[0].low()
	for ok {
		match := true
		for k := 1; k < len(ws); k++ {
			if err := ws[k].advance(doc); err != nil {
				return 0, err
			}
			d, more := ws[k].low()
			if !more {
				return total, nil
			}
			if d > doc {
				if err := ws[0].advance(d); err != nil {
					return 0, err
				}
				match = false
				break
			}
		}
		if match {
			var score float64
			for _, w := range ws {
				score += w.score(doc)
			}
			total++
			best.offer(leanHit{score: score, num: doc}, n)
			if total%4096 == 0 && ctx.Err() != nil {
				return 0, ctx.Err()
			}
			if err := ws[0].step(doc); err != nil {
				return 0, err
			}
		}
		doc, ok = ws[0].low()
	}
	return total, nil
}

// leanUnion walks a segment's words for a group holding any of them, and
// scores it as bleve's disjunction does: the scores of the words it holds,
// summed in the words' order (by postings count, as bleve's disjunction
// sorts its searchers), times the share of the words it holds.
func leanUnion(ctx context.Context, ws []leanWord, n int, best *leanHeap) (uint64, error) {
	var total uint64
	for {
		var doc uint64
		ok := false
		for _, w := range ws {
			if d, more := w.low(); more && (!ok || d < doc) {
				doc, ok = d, true
			}
		}
		if !ok {
			return total, nil
		}
		var sum float64
		matched := 0
		for _, w := range ws {
			if d, more := w.low(); more && d == doc {
				sum += w.score(doc)
				matched++
			}
		}
		total++
		best.offer(leanHit{score: sum * (float64(matched) / float64(len(ws))), num: doc}, n)
		if total%4096 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		for _, w := range ws {
			if err := w.step(doc); err != nil {
				return 0, err
			}
		}
	}
}

// leanHeap keeps the best hits, the worst first.
type leanHeap []leanHit

func (h *leanHeap) offer(x leanHit, n int) {
	if n <= 0 {
		return
	}
	if len(*h) < n {
		*h = append(*h, x)
		h.up(len(*h) - 1)
		return
	}
	if x.score <= (*h)[0].score {
		return
	}
	(*h)[0] = x
	h.down(0)
}

func (h leanHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[p].score <= h[i].score {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (h leanHeap) down(i int) {
	for {
		l, small := 2*i+1, i
		if l < len(h) && h[l].score < h[small].score {
			small = l
		}
		if r := l + 1; r < len(h) && h[r].score < h[small].score {
			small = r
		}
		if small == i {
			return
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
}
