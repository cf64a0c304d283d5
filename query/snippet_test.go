package query

import (
	"strings"
	"testing"
	"unicode/utf8"

	"ctx/index"
)

func marked(s string, spans []Span) []string {
	var out []string
	for _, sp := range spans {
		out = append(out, s[sp.Start:sp.End])
	}
	return out
}

func TestSnippetBestWindow(t *testing.T) {
	long := strings.Repeat("filler words about nothing in particular. ", 30)
	text := "The connection failed early. " + long + "Postgres connection failed: password authentication failed for user app. " + long
	s, spans := Snippet(text, index.HighlightTerms("postgres connection failed"), SnippetBytes)
	if !strings.Contains(s, "Postgres connection failed: password") {
		t.Fatalf("snippet not at the densest window: %q", s)
	}
	if !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") || len(s) > SnippetBytes+2*len("…") {
		t.Errorf("snippet cut marks or size: %q (%d bytes)", s, len(s))
	}
	got := strings.Join(marked(s, spans), "|")
	if !strings.HasPrefix(got, "Postgres|connection|failed|") {
		t.Errorf("marked %q", got)
	}
	if !validSpans(s, spans) {
		t.Errorf("spans %v invalid in %q", spans, s)
	}
}

func TestSnippetPhraseAndInflection(t *testing.T) {
	text := "27 files left unchanged. Later: can we continue from where we left off? The build fails."
	s, spans := Snippet(text, index.HighlightTerms(`"where we left off" failing -build provider:codex`), SnippetBytes)
	if got := strings.Join(marked(s, spans), "|"); got != "where we left off|fails" {
		t.Errorf("marked %q in %q", got, s)
	}
}

func TestSnippetHostileText(t *testing.T) {
	text := "\x1b[1mPostToolUse:Edit\x1b[22m [uv run ruff format]\r\n\tcompleted\x07 \x00successfully\u2028" +
		"\x1b]0;owned\x07 é ü"
	s, spans := Snippet(text, index.HighlightTerms("ruff completed"), SnippetBytes)
	if want := "PostToolUse:Edit [uv run ruff format] completed successfully é ü"; s != want {
		t.Errorf("snippet %q, want %q", s, want)
	}
	if got := strings.Join(marked(s, spans), "|"); got != "ruff|completed" {
		t.Errorf("marked %q", got)
	}
}

func TestSnippetBounds(t *testing.T) {
	for _, text := range []string{"", "x", strings.Repeat("é", 1000), strings.Repeat("word ", 5000),
		strings.Repeat("a", 10000) + " needle", "needle " + strings.Repeat("ü", 3000)} {
		s, spans := Snippet(text, index.HighlightTerms("needle word"), SnippetBytes)
		if !utf8.ValidString(s) || len(s) > SnippetBytes+2*len("…") || !validSpans(s, spans) {
			t.Errorf("Snippet of %d bytes: %q %v", len(text), s, spans)
		}
	}
	if s, spans := Snippet("no match here", nil, SnippetBytes); s != "no match here" || spans != nil {
		t.Errorf("no terms: %q %v", s, spans)
	}
}

// validSpans reports whether spans lie within s on rune boundaries, in
// order and apart (what a renderer relies on).
func validSpans(s string, spans []Span) bool {
	prev := 0
	for _, sp := range spans {
		if sp.Start < prev || sp.End <= sp.Start || sp.End > len(s) ||
			!utf8.RuneStart(s[sp.Start]) || (sp.End < len(s) && !utf8.RuneStart(s[sp.End])) {
			return false
		}
		prev = sp.End
	}
	return true
}

func TestSnippetPath(t *testing.T) {
	text := "Planning: generate migration + seeder SQL. " + strings.Repeat("x ", 60) +
		"- scripts/generate_migrations_and_seed.php splits the schema " + strings.Repeat("y ", 60) +
		"1. php scripts/migrate.php 2. php scripts/seed.php 3. php scripts/seed.php"
	s, spans := Snippet(text, index.HighlightTerms("scripts/generate_migrations_and_seed.php"), SnippetBytes)
	if got := marked(s, spans); len(got) == 0 || !strings.Contains(strings.Join(got, "|"), "scripts/generate_migrations_and_seed.php") {
		t.Errorf("the path is not marked whole in %q: %q", s, got)
	}
}

// FuzzSnippet: any text and query give a valid UTF-8 snippet of bounded
// size whose spans lie in it, in order, on rune boundaries.
func FuzzSnippet(f *testing.F) {
	f.Add("\x1b[1mPostToolUse:Edit\x1b[22m [uv run ruff format] completed", "ruff format")
	f.Add(strings.Repeat("é ", 500)+"needle", `"é é" needle`)
	f.Add("a\x00b\u2028c\x9b31m", "a b c")
	f.Fuzz(func(t *testing.T, text, q string) {
		s, spans := Snippet(text, index.HighlightTerms(q), SnippetBytes)
		if !utf8.ValidString(text) {
			return // stored event text is valid UTF-8
		}
		if !utf8.ValidString(s) || len(s) > SnippetBytes+2*len("…") || !validSpans(s, spans) {
			t.Fatalf("Snippet(%q, %q) = %q %v", text, q, s, spans)
		}
	})
}
