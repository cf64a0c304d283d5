package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/maint"
	"ctx/sources/claude"
)

// TestSameSessionUnderTwoPaths: a configured backup root holding a copy of
// ~/.claude, and a symlinked duplicate transcript, give the same sessions
// twice in one import. The second copy must find the first in the write
// batch (it is not committed yet), so the first import publishes and
// every session is there once.
func TestSameSessionUnderTwoPaths(t *testing.T) {
	f := newFixture(t, 0)
	if _, err := corpus.Generate(f.home, corpus.Options{Events: 600, Seed: 3, Providers: []string{corpus.ProviderClaude}}); err != nil {
		t.Fatal(err)
	}
	projects := filepath.Join(f.home, ".claude", "projects")
	files := historyFiles(t, projects, ".jsonl")
	if len(files) == 0 {
		t.Fatal("the corpus wrote no Claude Code transcript")
	}
	link := filepath.Join(filepath.Dir(files[0]), "link-"+filepath.Base(files[0]))
	if err := os.Symlink(files[0], link); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(f.home, "backup", "claude")
	copyDir(t, filepath.Join(f.home, ".claude"), backup)
	// The backup of one transcript is older: its first half. Whichever copy
	// is read first, the fuller one is kept.
	for _, p := range files[1:] {
		rel, _ := filepath.Rel(filepath.Join(f.home, ".claude"), p)
		halve(t, filepath.Join(backup, rel))
	}
	alone := &fixture{home: f.home, store: filepath.Join(t.TempDir(), "alone")}
	alone.importOnce(t)
	srcs := append(automatic(), core.Source{Kind: core.KindConfigured, Root: "backup", Dir: backup, Provider: claude.New()})
	for round := range 2 {
		rep, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(), Sources: srcs, Version: "test"})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if round == 0 && !rep.Published {
			t.Fatal("the first import published nothing")
		}
	}
	v, err := maint.Verify(f.store)
	if err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
	assertNoDuplicateHits(t, f.store)
	_, _, _, _, want := activeTree(t, alone.store)
	_, _, _, _, got := activeTree(t, f.store)
	if len(got.Sessions) != len(want.Sessions) {
		t.Fatalf("%d sessions, the live history alone has %d", len(got.Sessions), len(want.Sessions))
	}
	for i, e := range want.Sessions {
		if g := got.Sessions[i]; g.Session != e.Session || g.Events != e.Events {
			t.Fatalf("session %s: %d events, the live copy has %d", e.Session, g.Events, e.Events)
		}
	}
}

// halve keeps the first half of a file's lines.
func halve(t *testing.T, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if err := os.WriteFile(p, []byte(strings.Join(lines[:len(lines)/2], "")), 0o600); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies a tree of regular files.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		if !fi.Mode().IsRegular() || strings.HasPrefix(fi.Name(), "link-") {
			return nil
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
