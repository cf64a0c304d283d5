package core

import "testing"

func TestClip(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exact", 5, "exact"},
		{"abcdef", 3, "abc…"},
		{"aé", 2, "a…"}, // é is two bytes: the cut backs off to the rune start
		{"日本語", 4, "日…"},
		{"日本語", 0, "…"},
	} {
		if got := Clip(c.s, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	if got := RuneCut("日本語", 5); got != 3 {
		t.Errorf("RuneCut = %d, want 3", got)
	}
}

func TestIsUUID(t *testing.T) {
	for s, want := range map[string]bool{
		"0e4a2f1c-9b7d-4c3e-8f6a-1d2b3c4d5e6f": true,
		"0E4A2F1C-9B7D-4C3E-8F6A-1D2B3C4D5E6F": true,
		"0e4a2f1c-9b7d-4c3e-8f6a-1d2b3c4d5e6":  false, // short
		"0e4a2f1c_9b7d-4c3e-8f6a-1d2b3c4d5e6f": false, // separator
		"0e4a2f1c-9b7d-4c3e-8f6a-1d2b3c4d5e6g": false, // not hex
		"":                                     false,
	} {
		if got := IsUUID(s); got != want {
			t.Errorf("IsUUID(%q) = %v", s, got)
		}
	}
}

func TestNonEmpty(t *testing.T) {
	if got := NonEmpty("a", "", "b", ""); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("NonEmpty = %q", got)
	}
	if got := NonEmpty(); len(got) != 0 {
		t.Fatalf("NonEmpty() = %q", got)
	}
}
