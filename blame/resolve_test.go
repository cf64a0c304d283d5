package blame

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	sharedfx "ctx/internal/fixtures"
	"ctx/query"
	"ctx/sources"
)

// TestSplitChunkMatchesDecoding: splitting a chunk by event bounds gives
// exactly the events a full decode gives, for every chunk of a store
// holding the real Claude Code and Codex fixtures and a generated history.
func TestSplitChunkMatchesDecoding(t *testing.T) {
	s := newSandbox(t)
	fx := sharedfx.Dir(t)
	sharedfx.Copy(t, filepath.Join(fx, "claude-code", "projects"), filepath.Join(s.home, ".claude", "projects"))
	sharedfx.Copy(t, filepath.Join(fx, "codex", "sessions"), filepath.Join(s.home, ".codex", "sessions"))
	if _, err := corpus.Generate(s.home, corpus.Options{Events: 1500, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	if _, err := ingest.Run(context.Background(), ingest.Options{Home: s.store, Env: s.env(), Sources: srcs, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	rd, err := query.Open(s.store)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	tree, err := rd.Tree()
	if err != nil {
		t.Fatal(err)
	}
	chunks, events := 0, 0
	for _, e := range tree.Sessions {
		so, err := core.LoadSession(rd.Objects(), e.Object)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range so.Chunks {
			data, err := rd.Objects().Get(ref.ID)
			if err != nil {
				t.Fatal(err)
			}
			var c core.Chunk
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatal(err)
			}
			split := map[string][]byte{}
			if !splitChunk(data, split) {
				t.Fatalf("chunk %s of %s not split", ref.ID, e.Session)
			}
			if len(split) != len(c.Events) {
				t.Fatalf("chunk %s: %d events split, %d decoded", ref.ID, len(split), len(c.Events))
			}
			for _, want := range c.Events {
				var got core.Event
				if err := json.Unmarshal(split[want.ID.String()], &got); err != nil {
					t.Fatalf("event %s: %v", want.ID, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("event %s differs:\n%+v\n%+v", want.ID, got, want)
				}
				checkResolve(t, split[want.ID.String()], &want)
				events++
			}
			chunks++
		}
	}
	if chunks < 30 || events < 1500 {
		t.Fatalf("only %d chunks, %d events", chunks, events)
	}
	// A chunk laid out otherwise is refused, for the decoding path.
	for _, bad := range []string{`{"events":[{"ctx_event_id":"x"}],"kind":"chunk"}`, `{"kind":"chunk","events":[{"a":1}]}`,
		`{"kind":"chunk","events":[{"ctx_event_id":"x"`} {
		if splitChunk([]byte(bad), map[string][]byte{}) {
			t.Fatalf("split %s", bad)
		}
	}
}

// checkResolve: resolve on the event's JSON gives what excerpt gives on
// the decoded event.
func checkResolve(t testing.TB, raw []byte, e *core.Event) {
	t.Helper()
	want := resolved{ts: e.Timestamp.UTC(), excerpt: excerpt(e), ok: true}
	if got := resolve(raw); got != want {
		t.Fatalf("resolve %s:\n got %q\nwant %q", e.ID, got.excerpt, want.excerpt)
	}
}

// TestResolveExcerptEdgeCases: long texts cut inside escapes, words and
// runes; writes whose first lines are blank, escaped or carriage-returned.
func TestResolveExcerptEdgeCases(t *testing.T) {
	long := strings.Repeat("word\t\"é\u2028 ", 900) + strings.Repeat("x", 5000) + " end"
	cases := []core.Event{
		{Text: long},
		{Text: strings.Repeat(" ", 5000) + "late start " + strings.Repeat("ü", 3000)},
		{Text: strings.Repeat("\\", 3000) + " " + strings.Repeat("a ", 200)},
		{Text: strings.Repeat("日本語 ", 2000)},
		{Text: "alpha beta gamma delta" + strings.Repeat(" ", 5000) + "omega"},
		{Text: "short text"},
		{},
		{Tool: "Write", Files: []core.FileTouch{{Path: "a.go", Op: core.OpWrite, NewText: "\n  \r\n\t\nfirst \\n real\nsecond\n"}}},
		{Tool: "Write", Files: []core.FileTouch{{Path: "a.go", Op: core.OpWrite, NewText: "\n \n\r\n"}}, Text: "fallback"},
		{Tool: "Write", Files: []core.FileTouch{{Path: "a.go", Op: core.OpCreate, NewText: "\u00e9t\u00e9 \"q\"\n"}}},
		{Tool: "Edit", Files: []core.FileTouch{{Path: "b.go", Op: core.OpEdit, OldText: "a\nb\n", NewText: "a\nb\nc\n"}}},
		{Tool: "Edit", Files: []core.FileTouch{{Path: "b.go", Op: core.OpEdit, OldText: "a\n", NewText: "a\n"}}, Text: "no change"},
		{Tool: "apply_patch", Files: []core.FileTouch{{Path: "c.go", Op: core.OpPatch, Patch: "--- a\n+++ b\n@@\n+added\n"}}},
		{Tool: "Read", Files: []core.FileTouch{{Path: "d.go", Op: core.OpRead}}, Text: long},
	}
	for i := range cases {
		e := &cases[i]
		e.Timestamp = time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
		raw, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		checkResolve(t, raw, e)
	}
}

func FuzzResolveExcerpt(f *testing.F) {
	f.Add("text", "content\nline", "write", 4000)
	f.Add("é\\\"", "\n\n x", "edit", 10)
	f.Fuzz(func(t *testing.T, text, content, op string, repeat int) {
		repeat = max(0, min(repeat, 3000))
		e := core.Event{Timestamp: time.Unix(1, 0).UTC(), Tool: "T", Text: strings.Repeat(text+" ", repeat),
			Files: []core.FileTouch{{Path: "p", Op: op, NewText: content, OldText: text}}}
		raw, err := json.Marshal(&e)
		if err != nil {
			t.Skip()
		}
		var back core.Event // what the store holds after a round trip
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Skip()
		}
		checkResolve(t, raw, &back)
	})
}
