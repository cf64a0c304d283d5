package index

import (
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

func analyze(t *testing.T, name, text string) []string {
	t.Helper()
	a := newMapping().AnalyzerNamed(name)
	if a == nil {
		t.Fatalf("analyzer %s not registered", name)
	}
	return terms(a.Analyze([]byte(text)))
}

// analyzeEvent is the analysis of one event's text.
func analyzeEvent(t *testing.T, text string) []string {
	t.Helper()
	a, err := newEventAnalyzer(registry.NewCache())
	if err != nil {
		t.Fatal(err)
	}
	return terms(a.Analyze([]byte(text)))
}

func terms(ts analysis.TokenStream) []string {
	out := make([]string, 0, len(ts))
	for _, tok := range ts {
		out = append(out, string(tok.Term))
	}
	return out
}

func TestCodeAnalyzerTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"parseConfig", []string{"parseconfig", "parse", "config"}},
		{"s.parseConfig(x)", []string{"s.parseconfig", "s", "parseconfig", "parse", "config", "x"}},
		{"parse_config", []string{"parse_config", "parse", "config", "parseconfig"}},
		{"MAX_RETRIES", []string{"max_retries", "max", "retries", "maxretries"}},
		{"HTTPServer", []string{"httpserver", "http", "server"}},
		{"base64Encode", []string{"base64encode", "base64", "encode"}},
		{"internal/store/index_builder.go", []string{"internal/store/index_builder.go", "store/index_builder.go",
			"internal", "store", "index_builder.go", "index_builder", "index", "builder", "indexbuilder", "go"}},
		{"/repo/a.go", []string{"repo/a.go", "repo", "a.go", "go"}},
		{"commit 3fa9c2e1b7 and 3FA9C2E1", []string{"commit", "3fa9c2e1b7", "3fa9c2e1"}},
		{"ses_0123456789abcdef0123456789abcdef", []string{"ses_0123456789abcdef0123456789abcdef", "ses",
			"0123456789abcdef0123456789abcdef"}},
		{"error[E0308]: ENOENT", []string{"error", "e0308", "enoent"}},
		{"std::vector", []string{"std::vector", "std", "vector"}},
		{"my-component", []string{"my-component", "component"}},
		{"_private __init__", []string{"_private", "private", "__init__", "init"}},
		{"The café", []string{"café"}},
		{"日本語", []string{"日本語", "日", "本", "語"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := analyzeEvent(t, tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("tokens = %q, want %q", got, tt.want)
			}
			// Alone in a group, the same terms after the event's marker.
			if got := analyze(t, CodeAnalyzer, tt.in); !reflect.DeepEqual(got, append([]string{eventTerm}, tt.want...)) {
				t.Fatalf("group tokens = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGroupAnalyzerCountsEvents checks the group analysis: each event's
// terms once after its marker, so that a term's frequency counts the
// events holding it; an empty event is still counted.
func TestGroupAnalyzerCountsEvents(t *testing.T) {
	got := analyze(t, CodeAnalyzer, "cache miss cache\x1e\x1eparseConfig cache")
	want := []string{eventTerm, "cache", "miss", eventTerm, eventTerm, "parseconfig", "parse", "config", "cache"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tokens = %q, want %q", got, want)
	}
}

// TestQueryTokensAreIndexed checks the invariant the search relies on: every
// term the query analyzer takes from a text is indexed for that same text.
func TestQueryTokensAreIndexed(t *testing.T) {
	for _, in := range []string{
		"s.parseConfig(opts) failed: open /etc/ctx/config.toml: ENOENT (E0308) at 3fa9c2e1",
		"naïve café 東京 don't 1,000.5 v1.2.3 a:b foo--bar x_y_z ${HOME}/.cache",
		"https://example.com/a-b/c?x=1#frag user@example.org",
	} {
		indexed := map[string]bool{}
		for _, term := range analyzeEvent(t, in) {
			indexed[term] = true
		}
		for _, term := range analyze(t, QueryAnalyzer, in) {
			if !indexed[term] {
				t.Errorf("%q: query term %q is not indexed", in, term)
			}
		}
	}
}

func TestFoldTerm(t *testing.T) {
	tests := map[string]string{
		"parse_config": "parseconfig", "max_retries": "maxretries", "_private": "",
		"parseconfig": "", "ses_0123456789abcdef": "", "test_2": "", "a_b_c": "abc",
	}
	for in, want := range tests {
		if got := foldTerm(in); got != want {
			t.Errorf("foldTerm(%q) = %q, want %q", in, got, want)
		}
	}
}

// isStopWord answers as the stop list does for its words, for words near
// them and for every token of the hostile texts and a corpus.
func TestIsStopWord(t *testing.T) {
	list := stopWords()
	var words []string
	for w := range list {
		words = append(words, w, w+"s", "x"+w, w[:len(w)-1], strings.ToUpper(w))
	}
	for _, e := range chunkEvents(t) {
		words = append(words, strings.Fields(strings.ToLower(e.Text))...)
	}
	for _, w := range words {
		if got := isStopWord([]byte(w)); got != list[w] {
			t.Fatalf("isStopWord(%q) = %v, want %v", w, got, list[w])
		}
	}
	if isStopWord(nil) {
		t.Fatal("the empty term is no stop word")
	}
}
