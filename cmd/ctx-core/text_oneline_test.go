package main

import (
	"strings"
	"testing"
)

// oneLine's shortcut for plain lines returns what the folding would.
func TestOneLineShortcutFoldsAsBefore(t *testing.T) {
	for _, s := range []string{"", "a", "fix the flaky test", " lead", "trail ", "two  spaces", "tab\there",
		"new\nline", "cr\rx", "\x1b[31mred", "del\x7f", "naïve", "a\u2028b", "~/src/p/f.go, g.go", " ", "x y z"} {
		want := strings.Join(strings.Fields(clean(s)), " ")
		if got := oneLine(s); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
	if !plainLine("fix the flaky test") || plainLine("two  spaces") || plainLine("new\nline") {
		t.Fatal("plainLine misjudges")
	}
}
