package export

import "testing"

func TestParseRange(t *testing.T) {
	for _, tt := range []struct {
		in       string
		from, to int
		bad      bool
	}{{"", 0, -1, false}, {"3-7", 3, 7, false}, {"3-", 3, -1, false}, {"-7", 0, 7, false}, {"7-3", 0, 0, true},
		{"x", 0, 0, true}, {"-1-2", 0, 0, true}} {
		from, to, err := ParseRange(tt.in)
		if (err != nil) != tt.bad || (!tt.bad && (from != tt.from || to != tt.to)) {
			t.Errorf("%q: %d %d %v", tt.in, from, to, err)
		}
	}
}

func TestFenceOutrunsBackticks(t *testing.T) {
	if f := fence("a ```` b"); f != "`````" {
		t.Fatalf("fence %q", f)
	}
	if f := fence("plain"); f != "```" {
		t.Fatalf("fence %q", f)
	}
}
