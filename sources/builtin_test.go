package sources

import (
	"slices"
	"testing"

	"ctx/config"
)

// The configuration and the filters check provider names against
// config.BuiltinProviders, which must list exactly the registered providers.
func TestBuiltinProvidersListed(t *testing.T) {
	if got := Names(Builtin()); !slices.Equal(got, config.BuiltinProviders) {
		t.Fatalf("registered providers %v, config.BuiltinProviders %v", got, config.BuiltinProviders)
	}
}
