package budget

import (
	"strings"
	"testing"
)

func TestCountKnownText(t *testing.T) {
	// o200k_base splits this into two tokens: "hello" and " world".
	if n := Count("hello world"); n != 2 {
		t.Fatalf("Count = %d, want 2", n)
	}
	if Count("") != 0 {
		t.Fatal("empty text has tokens")
	}
}

func TestCutKeepsWholeFit(t *testing.T) {
	s := "package main\n\nfunc main() {}\n"
	out, n, cut := Cut(s, 1000)
	if out != s || cut || n != Count(s) {
		t.Fatalf("Cut(fit) = %q, %d, %v", out, n, cut)
	}
}

func TestCutLongText(t *testing.T) {
	s := strings.Repeat("the quick brown fox jumps over the lazy dog. ", 2000)
	out, n, cut := Cut(s, 100)
	if !cut || n > 100 || n < 90 || !strings.HasPrefix(s, out) {
		t.Fatalf("Cut = %d tokens, cut=%v, prefix=%v", n, cut, strings.HasPrefix(s, out))
	}
}

func TestCutMultibyte(t *testing.T) {
	s := strings.Repeat("日本語のテキスト🙂", 500)
	out, n, cut := Cut(s, 37)
	if !cut || n > 37 || !strings.HasPrefix(s, out) {
		t.Fatalf("Cut = %q (%d), cut=%v", out, n, cut)
	}
}
