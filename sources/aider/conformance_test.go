package aider

import (
	"testing"

	"ctx/core"
	"ctx/sources/sourcestest"
)

func TestConformance(t *testing.T) {
	sourcestest.Run(t, New(), []core.SourceFile{{Provider: ProviderID, Path: fixtureFile(t)}})
}
