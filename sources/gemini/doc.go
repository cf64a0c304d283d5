// Package gemini reads Gemini CLI chat recordings into the normalized model
// of ctx/core, under the provider id "gemini-cli".
//
// Vocabulary:
//   - Data directory: <home>/.gemini, where home is $GEMINI_CLI_HOME when
//     set, else the user's home. Chats live under tmp/<project>/chats/;
//     logs.json, checkpoints/, shell_history and tool-outputs/ beside them
//     are not read (logs.json repeats the prompts, slash commands included).
//   - Project directory: tmp/<sha256 of the project root> (legacy, before
//     v0.29) or tmp/<slug> (newer), where the data directory's
//     projects.json maps {"projects":{"<root>":"<slug>"}} and the slug
//     directory's .project_root holds the root. The workspace of a chat is
//     the .project_root, else the root projects.json gives for the slug or
//     hash (directory name, or the chat's projectHash), else the first of
//     the chat's workspace directories. The file it came from is listed as
//     the chat's companion, so a change to it re-reads the chat.
//   - Legacy chat: session-<time>-<id8>.json, one JSON document
//     {sessionId, projectHash, startTime, lastUpdated, messages[], summary?,
//     directories?, kind?} rewritten whole on every save. A read that
//     catches it half written is invalid_json and yields no session, so the
//     import keeps the version it read before. When a newer Gemini CLI
//     resumes it, it copies the whole chat into <name>.jsonl, which then
//     supersedes the .json (discovery lists only the .jsonl).
//   - Chat log: session-<time>-<id8>.jsonl (v0.39+), append-only. Line 1 is
//     the metadata {sessionId, projectHash, startTime, lastUpdated, kind};
//     then message records, {"$set":{…}} metadata patches and
//     {"$rewindTo":"<message id>"} rewinds.
//   - Message record: {id, timestamp, type, content, displayContent?} with
//     type user, gemini (model, thoughts[], toolCalls[]), info, warning or
//     error. A record is re-appended whole whenever the message changes
//     (its tool calls complete, its tokens arrive): the last record with an
//     id wins and keeps the place of the first.
//   - Rewind: $rewindTo removes the target message and every message after
//     it, as Gemini CLI does when the user rewinds to an earlier prompt;
//     their events leave the session, and later records append again. A
//     target that is not in the session (a rewind past the start) is the
//     problem rewind_unknown_target and removes nothing.
//   - Checkpoint: $set.messages, the history written whole after a
//     compression, an aborted turn or masked tool output. ctx keeps the
//     messages it read before (Gemini CLI would drop those left out) and
//     adds the checkpoint's new ones; when earlier messages were left out a
//     compaction event (native type "checkpoint") marks the place.
//   - Subagent chat: chats/<parent session id>/<session id>.jsonl with kind
//     "subagent"; its parent, which Gemini CLI always sets to the main
//     session, is also its root.
//   - Tool call: toolCalls[] of a gemini message, {id, name, args, result
//     [{functionResponse{id, name, response{output|error}}}], status,
//     timestamp, displayName, resultDisplay}. run_shell_command becomes
//     command_start / command_output / command_finish, with the exit code
//     read from "Exit Code: N" in the output text (absent means 0 when the
//     text is the "Output: …" form without a signal or error line); read_file
//     lists a read; write_file a write (a create when the file was new);
//     replace an edit with old_string/new_string (a create when old_string
//     is empty). Paths are the absolute ones Gemini CLI resolved when the
//     arguments hold a relative one. Edits that failed or were cancelled
//     list no file. MCP tools, named mcp_<server>_<tool> with display name
//     "<tool> (<server> MCP Server)", carry an Activity.
//   - User text the harness wrote is classified by prefix:
//     <session_context> and <hook_context> are other events
//     ("injected_context"), <state_snapshot> (a compression summary) is a
//     summary, "[Function Response: name]" a tool output.
//
// Event keys come from provider ids only: the message id (text, notices),
// message id + "/thoughts" (reasoning), "call:" + tool call id (calls, and
// function call parts of the content), plus "/output" and "/finish"
// (results). A call without an id is keyed by its message id and place
// ("<id>/call<i>", "<id>/fc<i>", "<id>/fr<i>"). Records without an id are
// keyed by their rank among records of their kind ("record#n" for unknown
// records, "checkpoint#n"), which appending never changes. Metadata patches
// make no events: the summary becomes the session title, startTime and
// lastUpdated its bounds. A chat without metadata is named by its file name.
//
// Problem codes beyond core's: rewind_unknown_target (ProblemRewindUnknownTarget).
package gemini
