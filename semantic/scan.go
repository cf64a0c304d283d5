package semantic

import (
	"bytes"
	"context"
	"ctx/core"
	"math"
	"runtime"
	"sort"
	"sync"
)

// Scan sizes: rows are scored a block at a time, so the block's int32
// accumulators stay in the L2 cache while every query dimension is added;
// a worker takes at least minTaskRows rows.
const (
	blockRows   = 8192
	minTaskRows = 32768
)

// qterm is one non-zero dimension of a quantized query.
type qterm struct {
	d int
	w int32
}

// quantizeQuery scales q to integers as large as they can be without any
// dot product with int8 codes overflowing int32, keeps the non-zero
// dimensions and returns the scale that maps dot products back.
func quantizeQuery(q []float32) ([]qterm, float64) {
	var m float64
	for _, x := range q {
		m = max(m, math.Abs(float64(x)))
	}
	if m == 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		return nil, 0
	}
	limit := float64(min(32767, math.MaxInt32/(127*len(q))))
	var terms []qterm
	for d, x := range q {
		if w := int32(math.Round(float64(x) / m * limit)); w != 0 {
			terms = append(terms, qterm{d: d, w: w})
		}
	}
	return terms, m / limit
}

// cand is a scored row: its dot product times the row's scale (the query's
// scale is applied at the end).
type cand struct {
	score    float64
	set, row int32
}

// worse orders candidates for the min-heap: lower score first, then the
// later row, so that equal inputs always keep the same rows.
func worse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	if a.set != b.set {
		return a.set > b.set
	}
	return a.row > b.row
}

// topK keeps the k best candidates in a min-heap.
type topK struct {
	k int
	h []cand
}

func (t *topK) push(c cand) {
	if len(t.h) < t.k {
		t.h = append(t.h, c)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(t.h[i], t.h[p]) {
				break
			}
			t.h[i], t.h[p] = t.h[p], t.h[i]
			i = p
		}
		return
	}
	if !worse(t.h[0], c) {
		return
	}
	t.h[0] = c
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(t.h) && worse(t.h[l], t.h[small]) {
			small = l
		}
		if r := l + 1; r < len(t.h) && worse(t.h[r], t.h[small]) {
			small = r
		}
		if small == i {
			return
		}
		t.h[i], t.h[small] = t.h[small], t.h[i]
		i = small
	}
}

type task struct{ set, lo, hi int }

// scan scores every row of every set on up to GOMAXPROCS goroutines and
// returns the k best candidates and the number of accepted rows.
func (ix *Index) scan(ctx context.Context, terms []qterm, filters []*rowFilter, k int) ([]cand, int, error) {
	var tasks []task
	for si, s := range ix.sets {
		for lo := 0; lo < s.Len(); lo += minTaskRows {
			tasks = append(tasks, task{si, lo, min(lo+minTaskRows, s.Len())})
		}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(tasks)))
	next := make(chan task, len(tasks))
	for _, t := range tasks {
		next <- t
	}
	close(next)
	tops := make([]topK, workers)
	counts := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[w].k = k
			acc := make([]int32, blockRows)
			for t := range next {
				if ctx.Err() != nil {
					return
				}
				counts[w] += ix.scanRange(t, terms, filters[t.set], acc, &tops[w])
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	all, considered := topK{k: k}, 0
	for w := range workers {
		considered += counts[w]
		for _, c := range tops[w].h {
			all.push(c)
		}
	}
	return all.h, considered, nil
}

// scanRange scores rows [lo, hi) of one set block by block.
func (ix *Index) scanRange(t task, terms []qterm, rf *rowFilter, acc []int32, top *topK) int {
	s, n := ix.sets[t.set], 0
	for lo := t.lo; lo < t.hi; lo += blockRows {
		hi := min(lo+blockRows, t.hi)
		a := acc[:hi-lo]
		clear(a)
		k := 0
		for ; k+4 <= len(terms); k += 4 {
			t := terms[k : k+4 : k+4]
			addColumns4(a, [4][]byte{s.column(t[0].d)[lo:hi], s.column(t[1].d)[lo:hi], s.column(t[2].d)[lo:hi],
				s.column(t[3].d)[lo:hi]}, [4]int32{t[0].w, t[1].w, t[2].w, t[3].w})
		}
		for _, q := range terms[k:] {
			addColumn(a, s.column(q.d)[lo:hi], q.w)
		}
		for i, dot := range a {
			if dot <= 0 || !rf.accept(lo+i) {
				continue
			}
			n++
			top.push(cand{score: float64(dot) * float64(s.scale(lo+i)), set: int32(t.set), row: int32(lo + i)})
		}
	}
	return n
}

// addColumn adds w × code to each accumulator, four rows per step.
func addColumn(acc []int32, col []byte, w int32) {
	col = col[:len(acc)]
	i := 0
	for ; i+4 <= len(acc); i += 4 {
		a, c := acc[i:i+4:i+4], col[i:i+4:i+4]
		a[0] += w * int32(int8(c[0]))
		a[1] += w * int32(int8(c[1]))
		a[2] += w * int32(int8(c[2]))
		a[3] += w * int32(int8(c[3]))
	}
	for ; i < len(acc); i++ {
		acc[i] += w * int32(int8(col[i]))
	}
}

// addColumns4 adds four weighted columns at once, reading and writing each
// accumulator once for four dimensions.
func addColumns4(acc []int32, c [4][]byte, w [4]int32) {
	n := len(acc)
	c0, c1, c2, c3 := c[0][:n], c[1][:n], c[2][:n], c[3][:n]
	w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
	for i := range acc {
		acc[i] += w0*int32(int8(c0[i])) + w1*int32(int8(c1[i])) + w2*int32(int8(c2[i])) + w3*int32(int8(c3[i]))
	}
}

// sortMatches orders matches best first, ties by event id.
func sortMatches(ms []core.Hit) {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Score != ms[j].Score {
			return ms[i].Score > ms[j].Score
		}
		return bytes.Compare(ms[i].EventID[:], ms[j].EventID[:]) < 0
	})
}
