package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
)

// TestFIFONamedLikeHistory: a FIFO named like a Codex rollout or a Claude
// Code transcript never blocks the import (nothing writes to it); each is
// a counted not_regular problem and the rest is imported.
func TestFIFONamedLikeHistory(t *testing.T) {
	f := newFixture(t, 300)
	fifos := []string{
		filepath.Join(f.home, ".codex", "sessions", "2025", "01", "02", "rollout-2025-01-02T03-04-05-0198a6f0-0000-7000-8000-000000000001.jsonl"),
		filepath.Join(f.home, ".claude", "projects", "-work-fifo", "0198a6f0-0000-7000-8000-000000000002.jsonl"),
	}
	for _, p := range fifos {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	type result struct {
		rep *ingest.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(), Version: "test"})
		done <- result{rep, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute): // a hang guard, not a timing assertion
		t.Fatal("the import blocked on a FIFO")
	}
	if res.err != nil || !res.rep.Published {
		t.Fatalf("import: %v", res.err)
	}
	counted := map[string]int{}
	for _, st := range res.rep.Generation.Sources {
		counted[st.Provider] += st.Problems[core.ProblemNotRegular]
	}
	for _, p := range []string{core.ProviderCodex, core.ProviderClaude} {
		if counted[p] != 1 {
			t.Errorf("%s: %d not_regular problems, want 1 (%+v)", p, counted[p], res.rep.Generation.Sources)
		}
	}
	if res.rep.SessionsWrote == 0 {
		t.Error("nothing else was imported")
	}
}
