// Package blame links commits to the agent evidence that wrote them and
// answers line, commit and pull-request blame (DESIGN.md §9; the note
// format is docs/notes-format.md).
//
// Vocabulary:
//   - Added lines: the lines a commit adds against its first parent
//     (git diff-tree -U0 -M), numbered in the commit's own version.
//   - Written lines: the trimmed lines an agent edit event wrote: a write's
//     content, an edit's new text less the lines its old text already had,
//     a patch's + lines, kept in the runs (hunks) the event wrote them in.
//     Trivial lines (no letter or digit) match only next to an added line
//     the same event wrote.
//   - Match kind: how an added line equals a written one: exact_line
//     (trimmed), whitespace, formatted (quotes, trailing separators) or
//     rewrap (joined across line breaks); identical lines go by position
//     in their hunks (match.go, normalize.go).
//   - Window: events since the parent commit's time less a margin (all
//     events for a root commit), of sessions whose workspace is the
//     repository or below it, or that touched a file in it.
//   - Record: one note line naming the lines of one file that one session's
//     events wrote (with a match kind), or a session active in the window
//     with no matching line (file null, match session_active).
//   - Carry: a record moves from an old commit to a new one (post-rewrite
//     pairs; at post-commit, a cherry-pick's source or the commits a squash
//     folded; ctx notes link for a forge's squash) with the lines the tree
//     diff between the two leaves unchanged, following renames, and the new
//     commit adds; the rest are dropped.
//   - Derived commit: one git made from others without post-rewrite
//     (cherry-pick, merge --squash, reset --soft then commit), told from a
//     plain commit by the repository state (State) at no git cost.
//   - Evidence: a record's event resolved through the pinned generation
//     (timestamp, excerpt); in_store false when the event is gone.
package blame
