// Package export writes one stored session as a document a person can
// read or share: Markdown, one self-contained HTML file (no script, no
// network, readable without JavaScript), or JSON Lines.
//
// Vocabulary: a transcript is the session's events in order; a tool call
// folds its output under it (paired by call id), file edits render as
// diffs, and long outputs are clipped with a marker that says how much
// was left out. The header carries the session's metadata and provenance
// (source file, generation). Transcript text is hostile: every format
// escapes it (HTML entities, Markdown with HTML escaped and code fences
// longer than any backtick run inside, JSON with HTML-safe escapes), and
// terminal control characters are dropped. Text was redacted when it was
// imported; export writes nothing the store does not hold.
//
// Writers stream: one chunk of events is in memory at a time, so memory
// stays bounded whatever the session's length.
package export
