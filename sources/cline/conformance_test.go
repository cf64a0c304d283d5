package cline

import (
	"testing"

	"ctx/sources/sourcestest"
)

// TestConformance runs the provider suite over every fixture file for each
// of the three providers this package serves.
func TestConformance(t *testing.T) {
	for _, p := range []*Provider{NewCline(), NewRooCode(), NewKiloCode()} {
		t.Run(p.Name(), func(t *testing.T) {
			sourcestest.Run(t, p, fixtureFiles(t, p.Name()))
		})
	}
}
