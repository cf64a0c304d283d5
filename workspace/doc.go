// Package workspace builds the ContextObject of spec 001 for one directory:
// its plan, its key files within a token budget, its git state, and the
// sessions the caller found for it in the store.
//
// Vocabulary:
//   - Root: the served workspace directory (a client root, --root, or cwd).
//   - Plan: PLAN.md, TODO.md and docs/plan*.md, joined.
//   - Key file: a file of the root chosen for the payload, ranked first by
//     the Activity the caller supplies (what the workspace's agent sessions
//     read and edited, most recent first), then by the usual entry points.
//   - Connector: one producer of a part of the object (file, git, sessions,
//     notion), reported in meta with its status and duration.
//   - Untrusted: every text that came from files or transcripts is data for
//     a model to read, never instructions; the object says so in Notice.
package workspace
