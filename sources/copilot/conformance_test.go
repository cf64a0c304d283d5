package copilot

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/sources/sourcestest"
)

func TestConformance(t *testing.T) {
	var files []core.SourceFile
	err := filepath.WalkDir(fixtureDir(t), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, core.SourceFile{Provider: ProviderID, Path: p})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("fixture logs %d, want 2", len(files))
	}
	sourcestest.Run(t, New(), files)
}
