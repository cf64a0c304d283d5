// Package codex reads OpenAI Codex CLI rollout files into the normalized
// model: one session per rollout file.
//
// Vocabulary:
//   - Rollout: one append-only JSON Lines file under $CODEX_HOME/sessions
//     (normally sessions/YYYY/MM/DD/rollout-<local time>-<uuid>.jsonl) or
//     $CODEX_HOME/archived_sessions; $CODEX_HOME defaults to ~/.codex.
//   - Envelope: a line {"timestamp","type","payload"} (Codex 0.3x onward);
//     type is session_meta, response_item, event_msg, turn_context,
//     compacted, or a newer bookkeeping type such as world_state.
//   - Legacy rollout: the pre-envelope format (mid-2025): line 1 is a bare
//     session meta {"id","timestamp","instructions","git"}, then bare
//     response items and {"record_type":"state"} markers, with no
//     per-line timestamps.
//   - Response item: what the model saw or produced (message, reasoning,
//     function_call, function_call_output, custom_tool_call, …). These are
//     the source of conversation content.
//   - Event message (event_msg): what the UI saw. Codex records prompts,
//     answers and reasoning twice, once as a response item and once as an
//     event message; the event message copy is a twin. Twins are dropped
//     once a file has shown any response item message or reasoning, and
//     used as content only in files (or the leading part of a file) without
//     one. Event messages without a twin (turn_aborted, token_count,
//     context_compacted, …) become other or compaction events.
//   - Injected context: user- or developer-role messages written by the
//     harness rather than the user (<environment_context>,
//     <user_instructions>, "# AGENTS.md instructions for …", skills, shell
//     command echoes, turn-aborted notes, subagent notifications); kept as
//     other events with native type "injected_context".
//   - Shell call: a function call to shell (argv), container.exec,
//     shell_command, exec_command or a local_shell_call. It becomes a
//     command_start, and its output a command_output plus a command_finish
//     whose exit code is read from the output text (a JSON string with
//     metadata.exit_code in 0.3x, an "Exit code: N" header in 0.7x,
//     "Process exited with code N" for exec_command, or "exit code: N" in a
//     sandbox failure message).
//   - Patch call: apply_patch, as a custom tool call or as shell argv
//     ["apply_patch", patch]; a tool_call whose Files list every file of the
//     patch with its hunk text.
//   - MCP call: a function call whose name is server__tool (as in the
//     legacy fixture, "task-master-ai__next_task") or mcp__server__tool
//     (later codex-rs), or that carries a namespace "mcp__server"; it gets
//     an Activity invocation with protocol "mcp".
//   - Record key: "<timestamp>#<n>", the record's raw timestamp and its
//     index among the records sharing that timestamp so far. Event keys are
//     derived from it or from the provider call id, never from byte offsets,
//     so ids stay the same when lines are appended. Records without a
//     timestamp (legacy) fall back to the event ordinal.
//   - Streaming (stream.go): an import hands a rollout's events over a
//     chunk at a time, a window behind the last record read, so that a long
//     rollout is never held whole; a record that reaches further back asks
//     for the whole parse. In the daemon's passes a long rollout's parse is
//     held open after its last complete line (live.go).
package codex
