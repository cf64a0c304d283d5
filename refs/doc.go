// Package refs publishes generations: commit-like objects that name one
// complete, consistent state of the store.
//
// Vocabulary:
//   - Generation: parent generation, root tree, creation time, importer
//     version, per-source stats, the import cursors and the index shards
//     that cover it. Stored as an object; its ID is its blake3.
//   - Ref: a small file under $CTX_HOME/refs holding a generation ID.
//     refs/active is the one every reader pins.
//   - Update: the only way a ref changes: compare-and-swap under an O_EXCL
//     lock file, fsync, rename, fsync of the directory, then a reflog line.
//   - Reflog: logs/refs/<name>, one line per update (old new time message);
//     verify and gc keep every generation it names.
package refs
