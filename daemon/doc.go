// Package daemon is the persistent importer: it watches sources, imports
// increments, answers wakes on a unix socket and is the single writer of
// the store (DESIGN.md §8). It is not built yet; until it is, ctx import is
// the only writer.
package daemon
