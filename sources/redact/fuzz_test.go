package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzString: never panics; text without matches comes back unchanged; each
// replacement adds at most one marker's length; valid UTF-8 stays valid; a
// second pass finds nothing.
func FuzzString(f *testing.F) {
	for _, p := range plants(newFake(8)) {
		f.Add(p.pre + p.secret + p.post)
	}
	for _, s := range benignTexts {
		f.Add(s)
	}
	f.Add("password=" + strings.Repeat("a1", 300))
	f.Add("-----BEGIN RSA PRIVATE KEY-----\\nMIIB\\n")
	r := New()
	maxMarker := 0
	for _, rl := range r.Rules() {
		maxMarker = max(maxMarker, len(markerOpen)+len(rl.ID)+1)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, n := r.String(s)
		if n == 0 && out != s {
			t.Fatalf("no replacement but output changed: %q → %q", s, out)
		}
		if len(out) > len(s)+n*maxMarker {
			t.Fatalf("%d replacements grew %d bytes to %d", n, len(s), len(out))
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("valid UTF-8 %q became invalid %q", s, out)
		}
		if strings.Count(out, markerOpen) < n {
			t.Fatalf("%d replacements but fewer markers in %q", n, out)
		}
		if again, m := r.String(out); m != 0 || again != out {
			t.Fatalf("not idempotent: %q → %q → %q (%d)", s, out, again, m)
		}
	})
}
