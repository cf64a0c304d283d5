// Package objects is the content-addressed blob store of ctx.
//
// Vocabulary:
//   - ID: the blake3-256 of an object's canonical uncompressed bytes.
//   - Store: a directory of immutable objects under $CTX_HOME/objects, each
//     zstd-compressed, written atomically (temp file, fsync, rename, fsync of
//     the directory; a large batch syncs its filesystem once instead of each
//     file and directory) and re-hashed on every read.
//   - CorruptError: what a read returns when the bytes on disk do not hash to
//     the object's name; it names the object.
//
// Objects are never rewritten; only gc deletes them.
package objects
