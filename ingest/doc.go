// Package ingest runs one import: it discovers every provider's history,
// re-reads only the files that changed since the active generation, stores
// their sessions as objects, indexes what is new in fresh Bleve shards and
// publishes the result as the next generation with one compare-and-swap
// (a long import publishes checkpoints on the way, see checkpoint.go).
//
// Vocabulary:
//   - Writer lock: an exclusive flock on $CTX_HOME/lock held for the whole
//     import; a second import waits for it (the lock dies with its process,
//     so a crashed import never leaves the store locked).
//   - Carry-over: files whose size and mtime match their cursor are not
//     read; their sessions, cursors and problem counts pass to the next
//     generation unchanged. Sessions of files that disappeared are kept.
//   - Re-index: a changed session's chunks that are new are indexed again
//     whole; events that existed before get a tombstone naming the new
//     generation so older copies are ignored. A merge drops the tombstones
//     of events no other shard holds a copy of any more (tombstones.go).
//   - Live parse: in the daemon's passes (Options.Deferred), a long
//     transcript's parse (Claude Code's, Codex's: core.LiveParser) is held
//     open between passes, so a pass reads only
//     what was appended to it (live.go).
package ingest
