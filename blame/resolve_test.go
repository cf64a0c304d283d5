package blame

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

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
	copyDir(t, filepath.Join(fx, "claude-code", "projects"), filepath.Join(s.home, ".claude", "projects"))
	copyDir(t, filepath.Join(fx, "codex", "sessions"), filepath.Join(s.home, ".codex", "sessions"))
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

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}
