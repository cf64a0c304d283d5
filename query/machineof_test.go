package query

import (
	"context"
	"testing"
)

// TestSearchLeavesAMachinelessTreeUndecoded: a search of a store whose
// sessions are all its own reads the tree's bytes once to learn that no
// entry names a machine, and never decodes it; its hits carry no machine.
func TestSearchLeavesAMachinelessTreeUndecoded(t *testing.T) {
	r := fixtureReader(t) // a fresh Reader over the real fixtures' store
	res, err := r.Search(context.Background(), SearchRequest{Query: "ruff format", Limit: 5})
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("search: %v, %d hits", err, len(res.Results))
	}
	for _, h := range res.Results {
		if h.Machine != "" {
			t.Fatalf("hit %s names machine %q", h.CtxEventID, h.Machine)
		}
	}
	if r.tree != nil || r.anyMachine {
		t.Fatalf("the tree was decoded (%v) or taken to name a machine (%v)", r.tree != nil, r.anyMachine)
	}
}
