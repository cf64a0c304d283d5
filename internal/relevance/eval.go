package relevance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"ctx/core"
	"ctx/query"
)

// Depth is the number of results judged (MRR@10).
const Depth = 10

// Outcome is one query's result: the 1-based rank of its first acceptable
// target (0 when none is in the top Depth) and the ids returned, in order.
type Outcome struct {
	Judged
	Rank int
	Got  []string
	// Mode is the mode the search actually used.
	Mode string
}

// Figures are the known-item measures of a group of queries.
type Figures struct {
	Queries int
	MRR     float64 // mean reciprocal rank, ranks past Depth count 0
	At1     float64 // share of queries answered first
	At5     float64 // share answered in the top five
}

// Report is the evaluation of a set: every outcome, the figures per kind
// and overall.
type Report struct {
	Outcomes []Outcome
	ByKind   map[string]Figures
	Overall  Figures
}

// Options tune an evaluation.
type Options struct {
	// SemanticWeight, when set, overrides the hybrid fusion weight.
	SemanticWeight *float64
}

// Evaluate runs every query of the set against the store's active
// generation and scores the answers.
func Evaluate(ctx context.Context, r *query.Reader, s *Set) (*Report, error) {
	return EvaluateWith(ctx, r, s, Options{})
}

// EvaluateWith is Evaluate with options.
func EvaluateWith(ctx context.Context, r *query.Reader, s *Set, o Options) (*Report, error) {
	accept, err := resolve(r, s)
	if err != nil {
		return nil, err
	}
	rep := &Report{ByKind: map[string]Figures{}}
	for qi, j := range s.Queries {
		res, err := r.Search(ctx, query.SearchRequest{Query: j.Query, Mode: j.Mode, Scope: j.Scope, Limit: Depth,
			SemanticWeight: o.SemanticWeight})
		if err != nil {
			return nil, fmt.Errorf("relevance: %s: %w", j.ID, err)
		}
		o := Outcome{Judged: j, Mode: res.Metadata.Mode}
		for i, h := range res.Results {
			o.Got = append(o.Got, h.CtxEventID)
			if o.Rank == 0 && accept[qi][h.CtxEventID] {
				o.Rank = i + 1
			}
		}
		rep.Outcomes = append(rep.Outcomes, o)
	}
	for _, k := range Kinds {
		rep.ByKind[k] = figures(rep.Outcomes, k)
	}
	rep.Overall = figures(rep.Outcomes, "")
	return rep, nil
}

// ErrStaleTarget marks a judged query whose target matches no event of the
// store: the fixtures or the model changed under the set.
var ErrStaleTarget = errors.New("relevance: target matches no event")

// resolve lists, per query, the ids of the events its target accepts.
func resolve(r *query.Reader, s *Set) ([]map[string]bool, error) {
	accept := make([]map[string]bool, len(s.Queries))
	for i := range accept {
		accept[i] = map[string]bool{}
	}
	err := eachEvent(r, func(sess *query.SessionInfo, e *core.Event) error {
		for i := range s.Queries {
			if s.Queries[i].Target.Accepts(sess.Provider, e) {
				accept[i][e.ID.String()] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, a := range accept {
		if len(a) == 0 {
			return nil, fmt.Errorf("%w: %s", ErrStaleTarget, s.Queries[i].ID)
		}
	}
	return accept, nil
}

func figures(os []Outcome, kind string) Figures {
	var f Figures
	for _, o := range os {
		if kind != "" && o.Kind != kind {
			continue
		}
		f.Queries++
		if o.Rank > 0 {
			f.MRR += 1 / float64(o.Rank)
		}
		if o.Rank == 1 {
			f.At1++
		}
		if o.Rank > 0 && o.Rank <= 5 {
			f.At5++
		}
	}
	if f.Queries > 0 {
		n := float64(f.Queries)
		f.MRR, f.At1, f.At5 = f.MRR/n, f.At1/n, f.At5/n
	}
	return f
}

// Print writes the figures per kind and overall as a table.
func (rep *Report) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "kind\tqueries\tMRR@10\tsuccess@1\tsuccess@5\t\n")
	row := func(name string, f Figures) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t\n", name, f.Queries, f.MRR, f.At1, f.At5)
	}
	for _, k := range Kinds {
		row(k, rep.ByKind[k])
	}
	row("overall", rep.Overall)
	return tw.Flush()
}

// PrintMisses lists the queries whose target was not ranked first, with
// the rank it got (0: not in the top Depth).
func (rep *Report) PrintMisses(w io.Writer) {
	for _, o := range rep.Outcomes {
		if o.Rank != 1 {
			fmt.Fprintf(w, "%-14s rank %2d  %-10s %q\n", o.ID, o.Rank, o.Kind, o.Query)
		}
	}
}

// SameOrder reports the queries whose returned ids differ between two
// reports of the same set (two imports of the same history must agree).
func SameOrder(a, b *Report) []string {
	var diff []string
	for i := range a.Outcomes {
		if i >= len(b.Outcomes) || !slices.Equal(a.Outcomes[i].Got, b.Outcomes[i].Got) {
			diff = append(diff, a.Outcomes[i].ID)
		}
	}
	return diff
}
