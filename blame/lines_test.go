package blame

import (
	"strings"
	"testing"
)

// TestDiffPastAnOverlongLine: a line of git's output longer than any
// scanner buffer (a minified file of 65 MiB on one line) is read whole, and
// the files after it in the same diff are not dropped.
func TestDiffPastAnOverlongLine(t *testing.T) {
	long := strings.Repeat("x", 65<<20)
	out := "diff --git a/min.js b/min.js\n--- /dev/null\n+++ b/min.js\n@@ -0,0 +1 @@\n+" + long + "\n" +
		"diff --git a/app.go b/app.go\n--- /dev/null\n+++ b/app.go\n@@ -0,0 +1,2 @@\n+package app\r\n+func Run() {}\n"
	a := parseDiff(out)
	if got := a.Files["min.js"]; len(got) != 1 || len(got[0].Text) != len(long) {
		t.Fatalf("min.js: %d lines", len(got))
	}
	got := a.Files["app.go"]
	if len(got) != 2 || got[0] != (Line{N: 1, Text: "package app"}) || got[1] != (Line{N: 2, Text: "func Run() {}"}) {
		t.Fatalf("app.go after the long line: %+v", got)
	}
}

// TestParseRewriteSaysWhatItCouldNotRead: a line of post-rewrite's input
// past the scanner's limit is an error, with the pairs before it kept.
func TestParseRewriteSaysWhatItCouldNotRead(t *testing.T) {
	in := "a1 b1\na2 b2 squash\n" + strings.Repeat("z", 1<<20) + "\na3 b3\n"
	pairs, err := ParseRewrite(strings.NewReader(in))
	if err == nil {
		t.Fatal("no error for an unreadable line")
	}
	if len(pairs) != 2 || pairs[0] != (Pair{"a1", "b1"}) || pairs[1] != (Pair{"a2", "b2"}) {
		t.Fatalf("pairs before the error: %+v", pairs)
	}
	pairs, err = ParseRewrite(strings.NewReader("a1 b1\r\n\nonly-one\na2 b2\n"))
	if err != nil || len(pairs) != 2 {
		t.Fatalf("plain input: %+v %v", pairs, err)
	}
}
