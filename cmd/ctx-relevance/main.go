// Command ctx-relevance measures search quality on the judged relevance set:
// it imports the real agent fixtures (shared/fixtures/agents, placed at the
// agents' default paths in a scratch home) and prints MRR@10, success@1 and
// success@5 per query kind.
//
//	ctx-relevance [-fixtures DIR] [-misses] [-twice] [-dump FILE] [-keep DIR]
//
// -twice imports the same history into a second store and reports the
// queries whose result order differs between the two (ranking must be
// deterministic). -dump writes every event as JSON lines for judging.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"ctx/internal/fixtures"
	"ctx/internal/relevance"
	"ctx/query"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ctx-relevance:", err)
		os.Exit(1)
	}
}

// opts are the evaluation options the flags set.
var opts relevance.Options

func run() error {
	fx := flag.String("fixtures", "", "the shared/fixtures/agents directory (found above the working directory by default)")
	misses := flag.Bool("misses", false, "list the queries whose target is not first")
	twice := flag.Bool("twice", false, "import twice and compare the result orders")
	dump := flag.String("dump", "", "write every event as JSON lines to this file")
	keep := flag.String("keep", "", "build the stores under this directory and keep them")
	one := flag.String("query", "", "print the top ten of this query instead (with -mode)")
	mode := flag.String("mode", "", "search every query in this mode (lexical, semantic, hybrid) instead of its own")
	weight := flag.Float64("semantic-weight", -1, "the hybrid fusion weight (0..1; the default when negative)")
	flag.Parse()
	if *weight >= 0 {
		opts.SemanticWeight = weight
	}
	if *fx == "" {
		dir, err := fixtures.Agents()
		if err != nil {
			return fmt.Errorf("shared/fixtures/agents not found above the working directory (pass -fixtures)")
		}
		*fx = dir
	}
	set, err := relevance.Default()
	if err != nil {
		return err
	}
	if *mode != "" {
		for i := range set.Queries {
			set.Queries[i].Mode = *mode
		}
	}
	root := *keep
	if root == "" {
		if root, err = os.MkdirTemp("", "ctx-relevance-"); err != nil {
			return err
		}
		defer os.RemoveAll(root)
	}
	ctx := context.Background()
	if *one != "" {
		return show(ctx, *fx, root, *one, *mode)
	}
	first, err := measure(ctx, *fx, filepath.Join(root, "a"), set, *dump)
	if err != nil {
		return err
	}
	fmt.Printf("%d judged queries over %d indexed events\n", len(set.Queries), first.events)
	if err := first.rep.Print(os.Stdout); err != nil {
		return err
	}
	if *misses {
		fmt.Println()
		first.rep.PrintMisses(os.Stdout)
	}
	if *twice {
		second, err := remeasure(ctx, first.store, filepath.Join(root, "b"), set)
		if err != nil {
			return err
		}
		diff := relevance.SameOrder(first.rep, second.rep)
		fmt.Printf("\nsame order on a second import: %d of %d queries\n", len(set.Queries)-len(diff), len(set.Queries))
		for _, id := range diff {
			fmt.Println("  differs:", id)
		}
	}
	return nil
}

type measured struct {
	rep    *relevance.Report
	events int
	store  *relevance.Store
}

func measure(ctx context.Context, fx, dir string, set *relevance.Set, dump string) (*measured, error) {
	st, err := relevance.Build(ctx, fx, dir)
	if err != nil {
		return nil, err
	}
	return evaluate(ctx, st, set, dump)
}

// remeasure imports the first store's history again into a new store and
// evaluates the set there.
func remeasure(ctx context.Context, first *relevance.Store, ctxHome string, set *relevance.Set) (*measured, error) {
	st, err := relevance.Import(ctx, first.Home, ctxHome)
	if err != nil {
		return nil, err
	}
	return evaluate(ctx, st, set, "")
}

// evaluate evaluates the set on a store, first dumping its index to dump
// when one is named.
func evaluate(ctx context.Context, st *relevance.Store, set *relevance.Set, dump string) (*measured, error) {
	r, err := query.Open(st.CtxHome)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if dump != "" {
		f, err := os.OpenFile(dump, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, err
		}
		if err := relevance.Dump(r, f); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
	}
	rep, err := relevance.EvaluateWith(ctx, r, set, opts)
	if err != nil {
		return nil, err
	}
	return &measured{rep: rep, events: st.Events, store: st}, nil
}

// show prints the top ten of one query with their type and snippet.
func show(ctx context.Context, fx, root, q, mode string) error {
	dir := filepath.Join(root, "a")
	st, err := relevance.Build(ctx, fx, dir)
	if err != nil {
		return err
	}
	r, err := query.Open(st.CtxHome)
	if err != nil {
		return err
	}
	defer r.Close()
	res, err := r.Search(ctx, query.SearchRequest{Query: q, Mode: mode, Limit: relevance.Depth})
	if err != nil {
		return err
	}
	fmt.Printf("mode %s, %d matches\n", res.Metadata.Mode, res.Metadata.TotalMatches)
	for i, h := range res.Results {
		fmt.Printf("%2d %7.3f %-12s %-14s %.110q\n", i+1, h.Score, h.Provider, h.EventType, h.Snippet)
	}
	return nil
}
