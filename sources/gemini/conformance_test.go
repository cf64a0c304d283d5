package gemini

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/sources/sourcestest"
)

// TestConformance runs the provider suite over every chat file of the
// fixture folder, found by walking it (not through discovery).
func TestConformance(t *testing.T) {
	var files []core.SourceFile
	err := filepath.WalkDir(fixtureDir(t), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(p)) == chatsDir &&
			(strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl")) {
			files = append(files, core.SourceFile{Provider: ProviderID, Path: p})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(fixtures) {
		t.Fatalf("found %d chat files, want %d", len(files), len(fixtures))
	}
	sourcestest.Run(t, New(), files)
}
