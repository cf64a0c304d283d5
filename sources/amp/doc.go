// Package amp reads Amp (Sourcegraph) CLI threads into the normalized
// model: one session per thread file.
//
// Vocabulary:
//   - Data dir: $XDG_DATA_HOME/amp, else ~/.local/share/amp. It also holds
//     secrets.json, session.json and history.jsonl, which are never read.
//   - Thread: threads/T-<uuid>.json, one JSON object {v, id, created,
//     title, agentMode, env, messages, nextMessageId, usageLedger,
//     relationships, "~debug"}, rewritten whole on every save (v counts
//     the saves). The id is the session's native id; created (epoch ms) its
//     start; env.initial.trees[0] its workspace (a file:// URI) and git
//     branch (repository.ref); the title is Amp's own.
//   - Message: {role: user|assistant|info, messageId, content[], state,
//     usage{model, timestamp}, meta{sentAt}}. Content blocks are text,
//     thinking (reasoning), redacted_thinking, tool_use {id, name, input},
//     tool_result {toolUseID, run{status, result, error, progress}} and,
//     in info messages, summary {summary:{summary}} (compaction summaries;
//     not in the fixtures).
//   - Timestamps: messages carry few. A user message's meta.sentAt, an
//     assistant message's usage.timestamp, or the usage ledger's inference
//     entry for the message (toMessageId) stamps it; otherwise the last
//     known time (from created) is carried forward.
//   - Tools: Bash {cmd, cwd} is a command; its run.result {output,
//     exitCode} gives the command output and finish. edit_file {path,
//     old_str, new_str} is an edit, create_file {path, content} a create,
//     Read {path} a read. Tools named mcp__<server>__<tool> (the form Amp's
//     permission rules match) are MCP calls with an Activity invocation.
//     Other tools (Grep, glob, Task, oracle, todo_write, …) are tool calls
//     whose results are rendered from run.result (strings, lines, text
//     blocks, an object's output, diff or content), else run.error or
//     run.progress. A result still "in-progress" when the file was saved
//     is kept as written; a Bash command finishes only once its run is done
//     (or failed).
//   - Relationships (handoff, fork, mention) are kept as other events; a
//     handoff thread is a new conversation, not a subagent.
//   - Event keys: "m<messageId>" (else the message index) plus the block
//     index, and tool_use ids for calls and their results, so a thread
//     rewritten with more messages keeps its earlier events' ids. A file
//     caught mid-rewrite (empty or not valid JSON) is a counted problem and
//     yields no session, so the previous import stays. Problems of a
//     message carry its 1-based index in messages[] as their line.
package amp
