// Package gitstore carries a ctx store over git remotes: the Git-native
// store of DESIGN.md §11.
//
// Vocabulary:
//   - machine: one store's identity among those sharing a remote, a short
//     name (hostname plus random hex) kept in $CTX_HOME/machine-id. Each
//     machine publishes under its own ref, refs/ctx/machines/<machine>/active,
//     so two machines never push to the same ref and no push needs force.
//   - view: the part of the active generation a machine shares: the sessions
//     imported here whose workspace or provider the [sync] include setting
//     names (nothing by default).
//   - mirror: a bare git repository per remote under $CTX_HOME/sync, written
//     in process with go-git. Each ctx object of the view is one git blob
//     holding the object's file as the store keeps it (a zstd frame and its
//     blake3 trailer; age-encrypted for an encrypted remote), named in the
//     commit's tree by its blake3 id, so the tree is the blake3 → git id map
//     and can be re-derived from the objects.
//   - snapshot: one machine's commit read back (after a fetch), whose every
//     object is checked against its blake3 name before anything uses it.
//
// The transport is the git CLI (push, fetch, ls-remote), so that the user's
// credential helpers, SSH config and agent apply unchanged; ctx stores no
// credentials.
package gitstore
