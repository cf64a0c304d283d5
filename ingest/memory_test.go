package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ctx/core"
	"ctx/ingest"
)

// TestPassesDoNotPileUp runs the daemon's passes one after another in one
// process, over a history of many small sessions, one of which grows by a
// record a pass: the heap left after a pass must not grow with the number
// of passes. Each generation a pass published once pointed into that
// pass's state for its parent's id, and the state kept for the next pass
// holds the generation, so every earlier pass's state (its copy of the
// session tree and the cursors) stayed alive: 4.5 MiB a pass at a million
// events.
func TestPassesDoNotPileUp(t *testing.T) {
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	dir := filepath.Join(home, ".claude", "projects", "-w")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	record := func(sid string, i int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"%s-%d","sessionId":"%s","timestamp":"2026-03-01T10:00:%02dZ","cwd":"/w/%s","message":{"role":"user","content":"record %d of session %s"}}`+"\n",
			sid, i, sid, i%60, sid, i, sid)
	}
	var grown string
	for s := range 3000 {
		sid := fmt.Sprintf("00000000-0000-4000-8000-%012d", s)
		path := filepath.Join(dir, sid+".jsonl")
		if err := os.WriteFile(path, []byte(record(sid, 0)+record(sid, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		grown = path
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	opts := ingest.Options{Home: store, Env: env, Sources: automatic(), Version: "test", Deferred: true}
	heap := func() float64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}
	sid := strings.TrimSuffix(filepath.Base(grown), ".jsonl")
	var at5 float64
	for i := range 25 {
		f, err := os.OpenFile(grown, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.WriteString(record(sid, i+2))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ingest.Run(context.Background(), opts)
		if err != nil || !rep.Published {
			t.Fatalf("pass %d: published %v, %v", i, rep != nil && rep.Published, err)
		}
		if i == 5 {
			at5 = heap()
		}
	}
	grew := heap() - at5
	if grew > 4 {
		t.Fatalf("the heap grew by %.1f MiB over 19 passes", grew)
	}
	t.Logf("the heap grew by %.2f MiB over 19 passes", grew)
}
