package claude

import (
	"testing"

	"ctx/core"
	"ctx/sources/sourcestest"
)

func TestConformance(t *testing.T) {
	var files []core.SourceFile
	for _, p := range fixtureFiles(t) {
		files = append(files, core.SourceFile{Provider: core.ProviderClaude, Path: p})
	}
	sourcestest.Run(t, New(), files)
}
