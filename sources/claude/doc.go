// Package claude reads Claude Code conversation histories into the normalized
// model of ctx/core.
//
// Vocabulary:
//   - history root: $CLAUDE_CONFIG_DIR when set, else <home>/.claude.
//     Transcripts live under projects/<slug>/; nothing else there is read
//     (sessions/<pid>.json is a live-process registry, not a transcript).
//   - transcript: one JSONL file; each line is a record discriminated by
//     "type" (user, assistant, system, and bookkeeping types such as
//     attachment, progress, permission-mode, file-history-snapshot).
//   - message id: message.id of an assistant record. One API response is
//     written as several records ("streamed blocks") sharing a message id;
//     they form one message.
//   - block: one entry of message.content (text, thinking, tool_use,
//     tool_result, image, tool_reference…).
//   - call id: the tool_use id that pairs a call with its tool_result.
//   - subagent file: the transcript of a Task/Agent run, either
//     projects/<slug>/agent-<id>.jsonl (old layout) or
//     projects/<slug>/<session>/subagents/agent-<id>.jsonl with a sibling
//     agent-<id>.meta.json (new layout). Its records carry the parent's
//     sessionId plus their own agentId.
//
// Identity. A main transcript's native session id is its sessionId (the file
// name wins when it is a UUID that disagrees, so two files never share one
// session); a subagent's is "<parent sessionId>/agent-<agentId>", with the
// parent as both parent and root. Event keys come from provider ids only:
// message id (text), message id + "/thinking" (reasoning), tool_use id (call),
// tool_use id + "/result" and "/finish" (output, command finish), record uuid
// (user, system and attachment records), and the record type plus a stable
// field for bookkeeping records without a uuid. Repeated keys are numbered by
// occurrence in core.ParsedSession.Finalize, so appending lines to a file
// never changes the ids of earlier events. Records whose uuid was already
// read are skipped, as Claude Code itself does.
//
// MCP tools are named mcp__<server>__<tool>. The name is split on the first
// "__" after the "mcp__" prefix: a server name is taken not to contain "__"
// (Claude Code folds the characters it does not allow to single "_"), while a
// tool name may.
//
// Session metadata: workspace, git branch and model are the first values
// seen (the model skips "<synthetic>" error messages); the title is the
// latest custom-title, else the latest ai-title, else the first legacy
// summary, else a subagent's meta.json description.
//
// Decoding: lines reach the parser already checked by jsonl (valid JSON,
// valid UTF-8), so records are read with a small non-validating walker
// (scan.go) into typed fields rather than with nested encoding/json
// decodes, which would validate the same bytes several times over.
//
// Shell exit codes: Claude Code stores none for Bash. A result that is not an
// error is exit code 0; an error whose text starts with "Exit code N" is N;
// any other error has an unknown exit code. Background commands get no
// finish event. A BashOutput result's exitCode is used when present.
package claude
