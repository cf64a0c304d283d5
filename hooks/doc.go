// Package hooks installs, removes and reports the per-repository git hooks
// (post-commit, post-rewrite) that feed package blame. It is not built yet.
package hooks
