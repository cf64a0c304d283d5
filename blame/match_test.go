package blame

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// added builds the added lines of one file from its text, numbered from
// start.
func addedOf(path string, start int, text string, removed ...string) *Added {
	a := &Added{Files: map[string][]Line{}, Binary: map[string]bool{}, Removed: map[string][][]string{}}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		a.Files[path] = append(a.Files[path], Line{N: start + i, Text: l})
	}
	if len(removed) > 0 {
		a.Removed[path] = [][]string{removed}
	}
	return a
}

func writtenOf(path string, hunks ...[]string) *Written {
	w := &Written{Files: map[string][]Hunk{}}
	for i, h := range hunks {
		w.Events = append(w.Events, EvRef{SessionID: fmt.Sprintf("ses_%d", i), EventID: fmt.Sprintf("evt_%d", i)})
		var lines []string
		for _, l := range h {
			lines = append(lines, strings.TrimSpace(l))
		}
		w.Files[path] = append(w.Files[path], Hunk{Ev: i, Lines: lines})
	}
	return w
}

// byLine lists, per committed line, "event:kind" of its records.
func byLine(n *Note, lines int) []string {
	out := make([]string, lines)
	for _, r := range n.Records {
		for _, l := range expand(r.Lines) {
			for _, e := range r.CtxEventIDs {
				out[l-1] += strings.TrimPrefix(e, "evt_") + ":" + r.Match + " "
			}
		}
	}
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
		if out[i] == "" {
			out[i] = "-"
		}
	}
	return out
}

func TestMatchKinds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		wrote   [][]string
		commit  string
		removed []string
		want    string
	}{
		{"exact", [][]string{{"x := a + b"}}, "  x := a + b\n", nil, "0:exact_line"},
		{"whitespace", [][]string{{"x:=a*b+c  // sum"}}, "x := a*b + c // sum\n", nil, "0:whitespace"},
		{"words stay apart", [][]string{{"return x"}}, "returnx\n", nil, "-"},
		{"formatted", [][]string{{"call('a', b);"}}, `call("a", b)` + "\n", nil, "0:formatted"},
		{"rewrap: one line wrapped", [][]string{{"f(alpha, beta, gamma)"}}, "f(\n  alpha,\n  beta,\n  gamma,\n)\n", nil,
			"0:rewrap|0:rewrap|0:rewrap|0:rewrap|0:rewrap"},
		{"rewrap: lines joined", [][]string{{"const o = {", "  a: 1,", "  b: 2,", "};"}}, "const o = { a: 1, b: 2 };\n", nil, "0:rewrap"},
		{"a word changed", [][]string{{"total := price * qty"}}, "total := price * quantity\n", nil, "-"},
		{"re-spaced old text is refused", [][]string{{"x:=a*b"}}, "x := a*b\n", []string{"x :=  a*b"}, "-"},
		{"re-wrapped old text is refused", [][]string{{"f(alpha, beta)"}}, "f(\n  alpha,\n  beta,\n)\n", []string{"f(alpha,beta)"}, "-|-|-|-"},
		{"exact text the commit removed still matches", [][]string{{"x := 1"}}, "x := 1\n", []string{"x := 1"}, "0:exact_line"},
		{"braces only next to the event's lines", [][]string{{"if ok {", "run()", "}"}}, "if ok {\nrun()\n}\n}\n", nil,
			"0:exact_line|0:exact_line|0:exact_line|-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := addedOf("f.go", 1, tc.commit, tc.removed...)
			got := strings.Join(byLine(Match(a, writtenOf("f.go", tc.wrote...)), len(a.Files["f.go"])), "|")
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestMatchIdenticalLinesByPosition: two sessions write the same line at
// two places of one file; each line cites the session whose hunk it is in,
// whichever wrote first.
func TestMatchIdenticalLinesByPosition(t *testing.T) {
	codex := []string{"func b() int {", "total := bx", "return total", "}"}
	claude := []string{"func a() int {", "total := ax", "return total", "}"}
	file := strings.Join(append(append([]string{"package p"}, claude...), codex...), "\n") + "\n"
	a := addedOf("f.go", 1, file)
	got := byLine(Match(a, writtenOf("f.go", codex, claude)), 9)
	want := []string{"-", "1:exact_line", "1:exact_line", "1:exact_line", "1:exact_line",
		"0:exact_line", "0:exact_line", "0:exact_line", "0:exact_line"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	// The same line written twice at one place (a session rewrote its
	// file) cites both events.
	got = byLine(Match(addedOf("f.go", 1, "return total\n"), writtenOf("f.go", []string{"return total"}, []string{"return total"})), 1)
	if got[0] != "0:exact_line 1:exact_line" {
		t.Errorf("one line, two writers: %v", got)
	}
}

// TestMatchManyBraces: 1,000 identical braces from two sessions are
// attributed each to its own function's session, quickly.
func TestMatchManyBraces(t *testing.T) {
	var file []string
	hunks := [][]string{nil, nil}
	for k := range 1000 {
		fn := []string{fmt.Sprintf("func f%d() int {", k), fmt.Sprintf("return %d", k), "}"}
		file = append(file, fn...)
		hunks[k%2] = append(hunks[k%2], fn...)
	}
	a := addedOf("f.go", 1, strings.Join(file, "\n"))
	t0 := time.Now()
	got := byLine(Match(a, writtenOf("f.go", hunks...)), len(file))
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("matching took %v", d)
	}
	for i, g := range got {
		if want := fmt.Sprintf("%d:exact_line", (i/3)%2); g != want {
			t.Fatalf("line %d: %s, want %s", i+1, g, want)
		}
	}
}
