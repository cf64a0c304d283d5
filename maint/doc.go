// Package maint checks and trims a store: Verify re-hashes every object that
// the active generation and the reflog reach and checks the index shards the
// active generation lists; GC removes what no kept generation reaches.
package maint
