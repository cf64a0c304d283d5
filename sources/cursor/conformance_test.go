package cursor

import (
	"testing"

	"ctx/core"
	"ctx/sources/sourcestest"
)

// TestConformance runs the provider suite over databases built from every
// fixture export (the global rows in WAL mode, the workspace values).
func TestConformance(t *testing.T) {
	g, w := fixtureDBs(t)
	sourcestest.Run(t, New(), []core.SourceFile{g, w})
}
