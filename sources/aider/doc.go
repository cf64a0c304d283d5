// Package aider reads Aider chat logs (.aider.chat.history.md) into the
// normalized model: one session per "aider chat started at" section.
//
// Vocabulary:
//   - Chat log: the append-only markdown file Aider keeps at the root of
//     each repository (or where --chat-history-file / AIDER_CHAT_HISTORY_FILE
//     points). Every Aider run appends a session to it. There is no global
//     index, so Discover only returns the file named by an absolute
//     $AIDER_CHAT_HISTORY_FILE; DiscoverIn walks configured roots (at most
//     MaxDepth levels, skipping hidden directories, node_modules and
//     vendor) and FindInRepo checks one repository for the hooks layer.
//   - Session header: "# aider chat started at YYYY-MM-DD HH:MM:SS". It is
//     the only timestamp in the file and is the machine's local time
//     without a zone; ctx takes it as UTC (a zone, if ever written, is
//     honoured). Every event of the session carries the session's time.
//   - Native session id: "<file path>#<header time text>", with "~n" added
//     to the n-th repeat of a header in one file. Sections before the first
//     header or with an unreadable time are kept and reported as
//     invalid_record.
//   - Block: a run of lines of one kind. "#### " lines are user input;
//     "> " lines are Aider's own output (each written with a two-space
//     markdown break; a multi-line message has "> " on its first line only
//     and the break after its last, so it continues until that break);
//     everything else is the model's reply. Inside a reply, a "> " or
//     "#### " line is markdown unless it follows a blank line and ends with
//     the two-space break, as Aider's writes do.
//   - Events: a user block is a message, a shell command (/run, !, /test,
//     /git → command_start, with the next output block as its
//     command_output) or an answer Aider typed at a confirmation prompt
//     (other "confirm"). The first output blocks of a session, before any
//     input, are the startup banner (other "startup"; it names the model and
//     edit format). Later output blocks are tool_output events (is_error for
//     failed edits, tracebacks and model API errors), split at "Running
//     <cmd>" lines of suggested shell commands into command_start and
//     command_output. Aider prints no exit code; a command_finish is
//     emitted only when the output names one. A reply is a reasoning event
//     (a leading <thinking-content-…>, <think> or <thinking> section) and a
//     message, followed by one tool_call per file edit.
//   - Edits: SEARCH/REPLACE blocks ("<<<<<<< SEARCH" … "=======" …
//     ">>>>>>> REPLACE", the file name on the line before, possibly across
//     a fence line) are edit touches with old and new text, always read;
//     ```diff blocks are patch touches when the session's edit format is
//     udiff, and "name + fenced content" blocks whole-file writes when it is
//     whole. Paths are as the model wrote them, relative to the repository.
//   - Event keys: "<block index in the session>:<part>" (user, msg,
//     reasoning, editN, tool, runN, outN, startup, cmd, out, confirm). A
//     block's kind and boundaries depend only on the lines before it, so
//     keys of earlier events never change as the log grows. Sessions without
//     any input or reply (started and quit) are skipped.
//   - Bad input: NUL bytes and invalid UTF-8 are replaced by U+FFFD and the
//     line kept (replaced_bytes); over-long lines (line_too_long) and a last
//     line without its newline (torn_line, left for the next import) are
//     skipped and counted; an empty file is empty_file.
package aider
