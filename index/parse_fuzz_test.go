package index

import (
	"strings"
	"testing"
)

// FuzzParseQuery feeds the query syntax arbitrary text: parsing, the
// field filters and the highlight terms never panic, and stay bounded.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{`"where we left off"`, `-word a OR b`, `provider:codex role: "x`, `- -- -"" ""`,
		`file:"a b" type:message`, `(.*)+[a-z]{2,}\d?`, strings.Repeat("w ", 10000), "\x00\x1b[1m\"é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := parseQuery(s)
		if len(p.groups)+len(p.not) > maxParsedItems {
			t.Fatalf("%d items", len(p.groups)+len(p.not))
		}
		_ = QueryFields(s)
		for _, term := range HighlightTerms(s) {
			if len(term) == 0 {
				t.Fatal("an empty highlight term")
			}
		}
	})
}
