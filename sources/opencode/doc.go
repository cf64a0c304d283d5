// Package opencode reads OpenCode (sst/opencode, now anomalyco/opencode)
// history into the normalized model of ctx/core.
//
// Vocabulary:
//   - Data directory: $XDG_DATA_HOME/opencode, else
//     <home>/.local/share/opencode. DiscoverIn takes one as a configured
//     root.
//   - Database: opencode.db in the data directory (opencode-<channel>.db
//     for other release channels; $OPENCODE_DB names another, absolute or
//     relative to the data directory). SQLite in WAL mode, written by
//     OpenCode ≥ 1.2. One database is one source file holding every
//     session; its -wal and -shm are companions. It is opened read-only
//     (never immutable, so the WAL is read) with a bounded busy timeout and
//     read in one transaction, a consistent snapshot while OpenCode writes.
//   - Legacy storage: the storage/ directory of OpenCode < 1.2:
//     session/<projectID>/<sessionID>.json, message/<sessionID>/<messageID>.json
//     and part/<messageID>/<partID>.json. Each session file is one source
//     file whose message and part files are its companions. OpenCode
//     migrates storage/ into opencode.db once (keeping the ids), but its
//     migration skips sessions whose project file is missing and files it
//     cannot read, and an older OpenCode may write storage/ after it; so
//     beside an opencode.db, the storage/ sessions whose ids the database
//     does not hold are listed too (a session in both is read from the
//     database only).
//   - Session: a session row or session file; parent_id/parentID links a
//     subagent (task tool) session to its parent. The root is found by
//     following parents within the same store.
//   - Message: one user prompt or one assistant step, with role, times,
//     model, agent and cwd (path.cwd). A message's content is its parts.
//   - Part: text, reasoning, tool, step-start, step-finish, snapshot,
//     patch, file, agent, subtask, retry, compaction. Ids (prt_…) sort in
//     creation order, as do message ids (msg_…).
//
// Normalization. A message's non-blank text parts are joined into one
// message event at its first text part (a summary event for an assistant
// message flagged summary, the compaction summary); synthetic text parts
// (harness notes such as "The following tool was executed by the user")
// are other events. Reasoning parts are reasoning events. A bash tool part
// is a command start, and once completed or failed a command output and a
// command finish whose exit code is metadata.exit. Other tool parts are a
// tool call and, once completed or failed, a tool output; pending and
// running parts (left so forever when OpenCode died) have no output. File
// tools fill Event.Files: edit and multiedit keep old and new text, write
// the content (op create when metadata.exists is false), apply_patch and
// patch the per-file diffs of metadata.files, else the hunks of the patch
// text; read is a read. Failed calls touch no files. A compaction part is
// a compaction event. The other part types are other events named by
// their type. A tool name outside OpenCode's built-in set that contains
// "_" is taken as an MCP tool "<server>_<tool>" and gets an Activity; the
// split is at the first "_", so a server name containing "_" is cut short.
//
// Identity. A session's native id is its OpenCode id (ses_…), the same in
// both storage forms. Event keys are provider ids: the message id for the
// message event, the part id for a part's first event, the part id plus
// "/output" and "/finish" for a tool's output and command finish, the
// message id plus "/error" and "/summary" for a message's error and
// legacy summary body. Timestamps come from the records' own epoch
// milliseconds, never from row bookkeeping (OpenCode's migration stamps
// rows with the migration time), so both storage forms give the same
// events: a part's own time, else the latest time seen earlier in its
// message, else the message's time.created.
//
// Reading a WAL-mode database while OpenCode is not running makes SQLite
// create an empty -wal and a -shm beside it (a read-only connection cannot
// remove them again); the database itself is never written.
//
// Problems: a part whose message is missing is orphan_part and a message
// whose session is missing orphan_message (skipped, read once the owner
// exists; for legacy storage discovery counts them); a database locked past
// the busy timeout is database_locked, a corrupt or foreign one
// invalid_database, one without tables empty_file; records that are not
// JSON objects are invalid_json or invalid_record; unknown part types and
// message roles are unknown_record (kept as other events).
package opencode
