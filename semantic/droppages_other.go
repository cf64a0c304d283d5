//go:build !linux

package semantic

// dropPages does nothing where the pages read of a mapping cannot be
// dropped with madvise from the standard library.
func dropPages([]byte) {}
