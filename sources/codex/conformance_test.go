package codex

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
			files = append(files, core.SourceFile{Provider: core.ProviderCodex, Path: p})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sourcestest.Run(t, New(), files)
}
