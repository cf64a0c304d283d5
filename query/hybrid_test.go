package query

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/semantic"
	"ctx/store"
)

// countingEmbedder is the built-in embedder counting its calls.
type countingEmbedder struct {
	*semantic.Hash
	calls atomic.Int32
	fail  bool
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls.Add(1)
	if c.fail {
		return nil, errors.New("embedder down")
	}
	return c.Hash.Embed(ctx, texts)
}

func newCounting() *countingEmbedder { return &countingEmbedder{Hash: semantic.NewHash(0)} }

func weightPtr(w float64) *float64 { return &w }

func search(t *testing.T, r *Reader, req SearchRequest, so SemanticOptions) *SearchResult {
	t.Helper()
	res, err := r.SearchWith(context.Background(), req, so)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func eventIDs(res *SearchResult) []string {
	var out []string
	for _, h := range res.Results {
		out = append(out, h.CtxEventID)
	}
	return out
}

func defaults() SemanticOptions { return SemanticOptions{Config: config.DefaultSemantic()} }

func hit(id byte, root byte, sub bool, ts int) core.Hit {
	h := core.Hit{IsSubagent: sub, Timestamp: time.Unix(int64(ts), 0)}
	h.EventID[0], h.SessionID[0], h.RootSessionID[0] = id, id, root
	return h
}

func firstBytes(hits []core.Hit) []byte {
	var out []byte
	for _, h := range hits {
		out = append(out, h.EventID[0])
	}
	return out
}

func TestFuseRanks(t *testing.T) {
	a, b, c, d := hit('a', 1, false, 1), hit('b', 2, false, 2), hit('c', 3, false, 3), hit('d', 4, false, 4)
	lex, vec := []core.Hit{a, b, c}, []core.Hit{c, d, a}
	cases := map[float64]string{
		0.7: "cadb", // c: .3/63+.7/61, a: .3/61+.7/63, d: .7/62, b: .3/62
		0.3: "acbd",
		0:   "abcd", // vector ranks add nothing; d scores 0 and comes last
		1:   "cdab",
	}
	for w, want := range cases {
		if got := string(firstBytes(fuse(lex, vec, w))); got != want {
			t.Errorf("weight %v: %s, want %s", w, got, want)
		}
	}
	fused := fuse(lex, vec, 0.5)
	if want := 0.5/61 + 0.5/63; fused[0].Score != want {
		t.Errorf("fused score %v, want %v", fused[0].Score, want)
	}
}

func TestGroupHitsAfterFusion(t *testing.T) {
	// Two hits of root 1 (a subagent's strongest), one of root 2.
	hits := []core.Hit{hit('s', 1, true, 1), hit('p', 1, false, 2), hit('x', 2, false, 3)}
	hits[0].Score, hits[1].Score, hits[2].Score = 1.0, 0.95, 0.5
	if got := string(firstBytes(core.GroupHits(hits, 10))); got != "pxs" {
		t.Fatalf("near primary leads, one per group first: %s", got)
	}
	hits[1].Score = 0.5
	if got := string(firstBytes(core.GroupHits(hits, 2))); got != "sx" {
		t.Fatalf("stronger subagent evidence leads: %s", got)
	}
}

func TestSearchModesOverFixtures(t *testing.T) {
	r := fixtureReader(t)
	req := SearchRequest{Query: "orchestrate experiment", Mode: ModeHybrid, Limit: 10}
	res := search(t, r, req, defaults())
	md := res.Metadata
	if md.Mode != ModeHybrid || md.RequestedMode != ModeHybrid || md.Fallback != nil || md.Semantic == nil ||
		*md.Semantic.Weight != config.BuiltinWeight || md.Semantic.Vectors == 0 || len(res.Results) == 0 {
		t.Fatalf("hybrid metadata %+v", md)
	}
	if res.Results[0].CtxEventID != "evt_87e6ed95a53b044ebcd22be20c27eb9b" {
		t.Errorf("hybrid top hit %s", res.Results[0].CtxEventID)
	}
	req.Mode = ModeSemantic
	sem := search(t, r, req, defaults())
	if sem.Metadata.Mode != ModeSemantic || sem.Metadata.TotalMatches == 0 || sem.Metadata.Semantic.Weight != nil {
		t.Fatalf("semantic metadata %+v", sem.Metadata)
	}
	roots := map[string]bool{}
	for i, h := range sem.Results {
		if h.EventType != "message" && h.EventType != "summary" && h.EventType != "compaction" {
			t.Errorf("semantic hit of type %s", h.EventType)
		}
		if h.Snippet == "" || h.Ordinal < 0 || h.RootSessionID == "" {
			t.Errorf("hit %d not hydrated: %+v", i, h)
		}
		if roots[h.RootSessionID] && len(roots) < 3 {
			t.Errorf("root %s repeated before every group had a hit", h.RootSessionID)
		}
		roots[h.RootSessionID] = true
	}
}

func TestSemanticFilters(t *testing.T) {
	r := fixtureReader(t)
	res := search(t, r, SearchRequest{Query: "fix the tests", Mode: ModeSemantic, Limit: 50, Filter: mustFilter(FilterArgs{Roles: []string{"user"}, Providers: []string{"claude-code"}})}, defaults())
	if len(res.Results) == 0 {
		t.Fatal("no results")
	}
	for _, h := range res.Results {
		if h.Role != "user" || h.Provider != "claude-code" {
			t.Fatalf("filtered hit %+v", h)
		}
	}
	one := res.Results[0].CtxSessionID
	res = search(t, r, SearchRequest{Query: "fix the tests", Mode: ModeHybrid, Limit: 50, Filter: mustFilter(FilterArgs{Sessions: []string{one}})}, defaults())
	for _, h := range res.Results {
		if h.CtxSessionID != one {
			t.Fatalf("hit of another session %s", h.CtxSessionID)
		}
	}
}

// TestHybridFallbacks: hybrid answers exactly what lexical answers, with a
// typed note, whenever vectors cannot be used; weight zero never embeds.
func TestHybridFallbacks(t *testing.T) {
	r := fixtureReader(t)
	lexical := func(req SearchRequest) []string {
		req.Mode, req.SemanticWeight = ModeLexical, nil
		return eventIDs(search(t, r, req, defaults()))
	}
	off := config.DefaultSemantic()
	off.Enabled = false
	zero := config.DefaultSemantic()
	zero.Weight = 0
	cases := []struct {
		name, reason string
		req          SearchRequest
		so           SemanticOptions
	}{
		{"calls scope", FallbackLexicalOnlyScope, SearchRequest{Query: "git status", Scope: "calls"}, defaults()},
		{"outputs scope", FallbackLexicalOnlyScope, SearchRequest{Query: "git status", Scope: "outputs"}, defaults()},
		{"tool event type", FallbackLexicalOnlyScope, SearchRequest{Query: "git status", Filter: mustFilter(FilterArgs{EventTypes: []string{"tool_call"}})}, defaults()},
		{"turned off", FallbackSemanticUnavailable, SearchRequest{Query: "git status"}, SemanticOptions{Config: off}},
		{"request weight 0", FallbackWeightZero, SearchRequest{Query: "git status", SemanticWeight: weightPtr(0)}, defaults()},
		{"config weight 0", FallbackWeightZero, SearchRequest{Query: "git status"}, SemanticOptions{Config: zero}},
		{"other embedder", FallbackSemanticUnavailable, SearchRequest{Query: "git status"},
			SemanticOptions{Config: config.DefaultSemantic(), Embedder: semantic.NewHash(64)}},
		{"embedder fails", FallbackSemanticUnavailable, SearchRequest{Query: "git status"},
			SemanticOptions{Config: config.DefaultSemantic(), Embedder: &countingEmbedder{Hash: semantic.NewHash(0), fail: true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			counting := newCounting()
			if c.so.Embedder == nil {
				c.so.Embedder = counting
			}
			req := c.req
			req.Mode = ModeHybrid
			res := search(t, r, req, c.so)
			fb := res.Metadata.Fallback
			if res.Metadata.Mode != ModeLexical || fb == nil || fb.Reason != c.reason || fb.From != ModeHybrid || fb.Note == "" {
				t.Fatalf("metadata %+v fallback %+v", res.Metadata, fb)
			}
			if got, want := eventIDs(res), lexical(c.req); !slices.Equal(got, want) || len(got) == 0 {
				t.Fatalf("fallback results %v, lexical %v", got, want)
			}
			if c.reason != FallbackSemanticUnavailable && counting.calls.Load() != 0 {
				t.Fatal("the embedder was called")
			}
		})
	}
}

func TestSemanticTypedErrors(t *testing.T) {
	r := fixtureReader(t)
	zero := config.DefaultSemantic()
	zero.Weight = 0
	cases := []struct {
		name string
		code Code
		req  SearchRequest
		so   SemanticOptions
	}{
		{"calls", CodeUnsupportedMode, SearchRequest{Query: "x", Scope: "calls"}, defaults()},
		{"outputs", CodeUnsupportedMode, SearchRequest{Query: "x", Scope: "outputs"}, defaults()},
		{"event type", CodeUnsupportedMode, SearchRequest{Query: "x", Filter: mustFilter(FilterArgs{EventTypes: []string{"command_output"}})}, defaults()},
		{"weight 0", CodeSemanticUnavailable, SearchRequest{Query: "x", SemanticWeight: weightPtr(0)}, defaults()},
		{"config weight 0", CodeSemanticUnavailable, SearchRequest{Query: "x"}, SemanticOptions{Config: zero}},
		{"other embedder", CodeSemanticUnavailable, SearchRequest{Query: "x"},
			SemanticOptions{Config: config.DefaultSemantic(), Embedder: semantic.NewHash(32)}},
		{"bad mode", CodeInvalidRequest, SearchRequest{Query: "x", Mode: "fuzzy"}, defaults()},
		{"weight range", CodeInvalidRequest, SearchRequest{Query: "x", SemanticWeight: weightPtr(1.5)}, defaults()},
	}
	for _, c := range cases {
		counting := newCounting()
		if c.so.Embedder == nil {
			c.so.Embedder = counting
		}
		if c.req.Mode == "" {
			c.req.Mode = ModeSemantic
		}
		_, err := r.SearchWith(context.Background(), c.req, c.so)
		if CodeOf(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
		if counting.calls.Load() != 0 {
			t.Errorf("%s: the embedder was called", c.name)
		}
	}
}

// TestNoVectorsBuilt: a store imported with semantic search off has no
// vectors; hybrid falls back, semantic fails typed.
func TestNoVectorsBuilt(t *testing.T) {
	home := fixtureStoreWith(t, t.TempDir(), &config.Semantic{Enabled: false})
	r := openReader(t, home)
	res := search(t, r, SearchRequest{Query: "orchestrate", Mode: ModeHybrid}, defaults())
	if fb := res.Metadata.Fallback; fb == nil || fb.Reason != FallbackSemanticUnavailable || len(res.Results) == 0 {
		t.Fatalf("%+v", res.Metadata)
	}
	_, err := r.SearchWith(context.Background(), SearchRequest{Query: "orchestrate", Mode: ModeSemantic}, defaults())
	var qe *Error
	if !errors.As(err, &qe) || qe.Code != CodeSemanticUnavailable || !errors.Is(err, semantic.ErrNotBuilt) {
		t.Fatalf("%v", err)
	}
}

func TestSemanticProjectionOnly(t *testing.T) {
	r := fixtureReader(t)
	res := search(t, r, SearchRequest{Query: "git status log branch", Mode: ModeSemantic, Limit: 100}, defaults())
	for _, h := range res.Results {
		if c := core.EventType(h.EventType).Class(); c != core.ClassMessage && c != core.ClassSummary {
			t.Fatalf("hit of class %s", c)
		}
	}
}

// TestSemanticPinnedGeneration: a reader uses the vectors of its own
// generation even after a newer generation has its own.
func TestSemanticPinnedGeneration(t *testing.T) {
	home := t.TempDir()
	build := func(r *Reader) {
		_, id := r.Generation()
		if _, err := semantic.Build(context.Background(), semantic.BuildOptions{Dir: store.At(home).Vectors(), Objects: r.Objects(),
			Generation: id, Embedder: semantic.NewHash(0)}); err != nil {
			t.Fatal(err)
		}
	}
	publishSynth(t, home, synthSession("one", 8))
	r1 := openReader(t, home)
	build(r1)
	publishSynth(t, home, synthSession("one", 8), synthSession("two", 8))
	r2 := openReader(t, home)
	build(r2)
	sessions := func(r *Reader) map[string]bool {
		res := search(t, r, SearchRequest{Query: "lorem ipsum event", Mode: ModeSemantic, Limit: 100}, defaults())
		out := map[string]bool{}
		for _, h := range res.Results {
			out[h.CtxSessionID] = true
		}
		return out
	}
	if got := sessions(r1); len(got) != 1 {
		t.Fatalf("generation 1 reader saw %d sessions", len(got))
	}
	if got := sessions(r2); len(got) != 2 {
		t.Fatalf("generation 2 reader saw %d sessions", len(got))
	}
}
