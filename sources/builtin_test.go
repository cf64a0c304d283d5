package sources

import (
	"slices"
	"testing"

	"ctx/core"
)

// The configuration and the filters check provider names against
// core.BuiltinProviders, which must list exactly the registered providers.
func TestBuiltinProvidersListed(t *testing.T) {
	if got := Names(Builtin()); !slices.Equal(got, core.BuiltinProviders) {
		t.Fatalf("registered providers %v, core.BuiltinProviders %v", got, core.BuiltinProviders)
	}
}
