// Package hooks installs, removes and reports the per-repository git hooks
// that feed package blame, and runs them (DESIGN.md §9).
//
// Vocabulary:
//   - Hooks dir: git rev-parse --git-path hooks, so core.hooksPath and
//     linked worktrees are honoured.
//   - Managed hook: a post-commit, post-rewrite or post-merge script ctx
//     wrote; it carries the "# ctx-hook v1" marker line, calls "ctx hooks
//     run <hook>" (the binary that installed it, else ctx on PATH) and
//     always exits 0.
//   - Chained hook: a hook that was there before, kept as
//     <hook>.ctx-chained and run first with the same arguments and stdin;
//     remove renames it back, so the bytes and mode are exactly restored.
//   - Manager: Husky, Lefthook or pre-commit; when one owns the hooks,
//     install writes nothing and prints the line to add to its config.
//   - Hooks log: $CTX_HOME/logs/hooks.log; every problem of a hook run lands
//     there and ctx hooks status shows the latest for the repository.
package hooks
