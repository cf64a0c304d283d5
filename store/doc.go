// Package store owns $CTX_HOME: where it is (Home), what lives in it
// (Layout: objects, refs, index shards, vectors, locks, logs, the wake
// socket, the cursor key) and the two ways to open it: OpenReadOnly for
// every reader, which creates nothing, and OpenWriter for the single
// writer, which takes the exclusive writer lock and creates what a new
// store needs.
//
// Vocabulary: the home is the store's root directory; a reader pins a
// generation through the refs it reads and never writes; the writer is
// whoever holds the lock file (ctx import, the daemon's passes).
package store
