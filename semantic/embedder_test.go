package semantic

import (
	"context"
	"ctx/config"
	"math"
	"slices"
	"testing"
)

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func embedOne(t testing.TB, e Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

// TestEmbedders is the conformance suite every embedder passes.
func TestEmbedders(t *testing.T) {
	factories := map[string]func(t *testing.T) Embedder{
		"builtin": func(*testing.T) Embedder { return NewHash(DefaultDim) },
		"openai":  func(t *testing.T) Embedder { return NewOpenAI(fakeServer(t, nil).URL, "fake-model", "") },
	}
	for name, factory := range factories {
		t.Run(name, func(t *testing.T) { runConformance(t, factory(t)) })
	}
}

func runConformance(t *testing.T, e Embedder) {
	ctx := context.Background()
	texts := []string{"parseConfig fails on an empty file", "", "deploy the frontend", "parseConfig fails on an empty file"}
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) || e.Dim() == 0 || e.ID() == "" {
		t.Fatalf("got %d vectors, dim %d, id %q", len(vecs), e.Dim(), e.ID())
	}
	for i, v := range vecs {
		if len(v) != e.Dim() {
			t.Fatalf("vector %d has %d dimensions, want %d", i, len(v), e.Dim())
		}
		if n := cosine(v, v); texts[i] != "" && math.Abs(n-1) > 1e-4 {
			t.Errorf("vector %d has squared norm %f", i, n)
		}
	}
	if !slices.Equal(vecs[0], vecs[3]) {
		t.Error("the same text embedded twice differs")
	}
	again, err := e.Embed(ctx, texts[2:3])
	if err != nil || !slices.Equal(again[0], vecs[2]) {
		t.Errorf("embedding alone differs from embedding in a batch (%v)", err)
	}
	if empty, err := e.Embed(ctx, nil); err != nil || len(empty) != 0 {
		t.Errorf("empty batch: %v %v", empty, err)
	}
}

func TestHashDeterministicAcrossInstances(t *testing.T) {
	text := "Refactor internal/store/index.go: rename s.parseConfig( to loadConfig and retry on ENOENT"
	a, b := embedOne(t, NewHash(0), text), embedOne(t, NewHash(DefaultDim), text)
	if !slices.Equal(a, b) {
		t.Fatal("two instances embed differently")
	}
	if NewHash(0).ID() != "ctx-hash-v1-384" {
		t.Fatalf("id %s", NewHash(0).ID())
	}
}

func TestHashFoldsIdentifierStyles(t *testing.T) {
	h := NewHash(0)
	base := embedOne(t, h, "parseConfig")
	for _, v := range []string{"ParseConfig", "parse_config", "PARSE_CONFIG", "s.parseConfig("} {
		if c := cosine(base, embedOne(t, h, v)); c < 0.999 {
			t.Errorf("%s: cosine %f with parseConfig", v, c)
		}
	}
	if c := cosine(base, embedOne(t, h, "parse the config")); c < 0.5 {
		t.Errorf("parse the config: cosine %f, want the parts to match", c)
	}
}

func TestHashRelatedScoresHigher(t *testing.T) {
	cases := []struct{ query, related, unrelated string }{
		{"parseConfig fails on empty file",
			"The parse_config helper crashes when the config file is empty; add a guard.",
			"Deploy the frontend bundle to staging with docker compose."},
		{"flaky test timeout in TestRetryBackoff",
			"TestRetryBackoff is flaky: it times out after 30s on CI because backoff sleeps too long.",
			"Renamed the CSS classes of the settings page and updated the screenshots."},
		{"nil pointer dereference in sessionStore.Load",
			"panic: runtime error: invalid memory address or nil pointer dereference at sessionStore.Load",
			"Wrote the release notes for version 2.3 and tagged the commit."},
		{"migrate database schema rollback",
			"The migration rolls back the schema change when the database transaction fails.",
			"Added keyboard shortcuts to the command palette."},
	}
	h := NewHash(0)
	for _, c := range cases {
		q := embedOne(t, h, c.query)
		rel, unrel := cosine(q, embedOne(t, h, c.related)), cosine(q, embedOne(t, h, c.unrelated))
		if rel <= unrel+0.1 {
			t.Errorf("%q: related %.3f, unrelated %.3f", c.query, rel, unrel)
		}
	}
}

func TestHashEmptyAndNoise(t *testing.T) {
	h := NewHash(0)
	for _, text := range []string{"", "   ", "!!! ... ???", "the a of and to"} {
		v := embedOne(t, h, text)
		if cosine(v, v) != 0 {
			t.Errorf("%q: non-zero vector", text)
		}
	}
	long := embedOne(t, h, string(make([]byte, 3*MaxEmbedBytes)))
	if cosine(long, long) != 0 {
		t.Error("NUL bytes gave features")
	}
}

func TestFoldParts(t *testing.T) {
	cases := map[string][]string{
		"parseConfig":       {"parse", "config"},
		"HTTPServer":        {"http", "server"},
		"getHTTPResponse2":  {"get", "http", "response", "2"},
		"max_retries":       {"max", "retries"},
		"__init__":          {"init"},
		"Überprüfung":       {"überprüfung"},
		"v2":                {"v", "2"},
		"already_lowercase": {"already", "lowercase"},
	}
	f := newFeaturizer(16)
	for tok, want := range cases {
		f.fold(tok)
		var got []string
		for _, p := range f.parts {
			got = append(got, string(f.word[p[0]:p[1]]))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: parts %q, want %q", tok, got, want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	good := []config.Semantic{config.DefaultSemantic(), {Enabled: true, Embedder: config.EmbedderOpenAI, Endpoint: "http://localhost:11434",
		Model: "nomic-embed-text", APIKeyEnv: "OPENAI_API_KEY", Weight: 0.3}, {Weight: 0}}
	for _, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	bad := []config.Semantic{{Embedder: "bert"}, {Embedder: config.EmbedderOpenAI, Model: "m"},
		{Embedder: config.EmbedderOpenAI, Endpoint: "ftp://x", Model: "m"}, {Embedder: config.EmbedderOpenAI, Endpoint: "http://x"},
		{Embedder: config.EmbedderOpenAI, Endpoint: "http://x", Model: "m", APIKeyEnv: "not a name"},
		{Endpoint: "http://x"}, {Weight: 1.5}, {Weight: -0.1}, {Weight: math.NaN()}}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: accepted", c)
		}
	}
	e, err := NewEmbedder(config.Semantic{Embedder: config.EmbedderOpenAI, Endpoint: "http://x/v1/", Model: "m", APIKeyEnv: "K"},
		func(k string) string { return map[string]string{"K": "secret"}[k] })
	if err != nil || !e.(*OpenAI).server.Keyed() || e.(*OpenAI).server.URL("embeddings") != "http://x/v1/embeddings" || e.ID() != "openai:m" {
		t.Fatalf("%+v %v", e, err)
	}
}
