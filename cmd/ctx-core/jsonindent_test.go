package main

import (
	"bytes"
	"testing"
	"time"

	"ctx/blame"
)

// writeJSONFast must write exactly what writeJSON writes.
func TestWriteJSONFastMatchesWriteJSON(t *testing.T) {
	ts := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	f := "a \"quoted\" [path]{x}.go"
	values := []any{
		map[string]any{},
		[]any{},
		map[string]any{"a": []any{}, "b": map[string]any{}, "c": nil, "d": 1.5, "e": true, "f": []any{[]any{}, map[string]any{"g": []int{1, 2}}}},
		"plain",
		[]string{`back\slash`, `quote"inside`, `\"`, `\\`, "tab\tnl\n", "<html> & é ✓ \u2028", `{"not":"json"}`, `,:[]{}`},
		&blame.FileView{File: f, Lines: []blame.LineView{
			{Line: 1, Commit: "c1", OrigPath: f, OrigLine: 1, Text: `	x := "}{]["`, Evidence: []blame.Evidence{}},
			{Line: 2, Commit: "c2", OrigPath: f, OrigLine: 7, Text: `y\`, Evidence: []blame.Evidence{{CtxSessionID: "ses_1",
				CtxEventID: "evt_1", Provider: "codex", Match: "exact_line", Timestamp: &ts, Excerpt: `Write a.go: "q"`, InStore: true}}},
		}, Problems: []string{"note of commit x ignored: bad"}},
		&blame.FileView{File: "<&>.go", Lines: []blame.LineView{}},
		sharedEvidence(ts),
	}
	for i, v := range values {
		var want, got bytes.Buffer
		if err := writeJSON(&want, v); err != nil {
			t.Fatal(err)
		}
		if err := writeJSONFast(&got, v, 64); err != nil {
			t.Fatal(err)
		}
		if want.String() != got.String() {
			t.Fatalf("value %d:\nwant %s\ngot  %s", i, want.String(), got.String())
		}
	}
}

func FuzzWriteJSONFast(f *testing.F) {
	for _, s := range []string{"", `"`, `\`, `\"]`, "[{}]", "é\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := map[string]any{s: []any{s, map[string]any{}, []any{}, map[string]string{"k": s}}, "n": nil}
		var want, got bytes.Buffer
		if err := writeJSON(&want, v); err != nil {
			t.Skip()
		}
		if err := writeJSONFast(&got, v, 64); err != nil {
			t.Fatal(err)
		}
		if want.String() != got.String() {
			t.Fatalf("want %q\ngot  %q", want.String(), got.String())
		}
	})
}

// sharedEvidence is a view whose lines share evidence slices, as BlameFile
// builds them, with a nil and an empty evidence and a shallow line.
func sharedEvidence(ts time.Time) *blame.FileView {
	ev := []blame.Evidence{{CtxSessionID: "ses_2", Provider: "claude-code", Match: "exact_line", Timestamp: &ts,
		Excerpt: "Edit <b>&amp;</b> \u2028", InStore: true}, {CtxSessionID: "ses_2", CtxEventID: "evt_9"}}
	other := []blame.Evidence{{CtxSessionID: "ses_3"}}
	v := &blame.FileView{File: "x.go", Problems: []string{"shallow clone: 1 lines"}}
	for i, e := range [][]blame.Evidence{ev, ev, other, nil, {}, ev[:1], ev} {
		v.Lines = append(v.Lines, blame.LineView{Line: i + 1, Commit: "c", OrigPath: "x.go", OrigLine: i + 1,
			Text: "<tag> & \"q\"", Evidence: e, Shallow: i == 3})
	}
	return v
}
