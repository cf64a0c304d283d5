// Package copilot reads GitHub Copilot CLI session logs into the normalized
// model: one session per events.jsonl, plus one per subagent in it.
//
// Vocabulary:
//   - Copilot home: $COPILOT_HOME, else <home>/.copilot (the reference
//     documents no other override; XDG_CONFIG_HOME was honoured by builds
//     before 0.0.422 only for configuration and is not read).
//   - Session log: session-state/<uuid>/events.jsonl, an append-only JSON
//     Lines file read with ctx/sources/jsonl, with workspace.yaml beside it
//     (id, cwd, git_root, repository, branch, summary, created_at,
//     updated_at; rewritten as the session goes on, so it is the file's
//     companion). Older builds wrote a flat session-state/<id>.jsonl, also
//     listed. history-session-state/*.json (older still, a different
//     format) is not read.
//   - Event: a line {"type","data","id","timestamp","parentId"} and, on a
//     subagent's events in newer builds, "agentId". The id (a UUID) keys
//     bookkeeping events; messageId keys messages (and "/reasoning" their
//     reasoning), reasoningId reasoning events, toolCallId calls (and
//     "/output", "/finish" their results), so keys never depend on offsets.
//   - Native session id: the session directory's name when it is a UUID
//     (a flat file's name likewise), else session.start's sessionId, else
//     the directory or file name.
//   - Content: user.message (content; transformedContent, with injected
//     <current_datetime> and <reminder> blocks, is not kept; attached files
//     are read touches), assistant.message (content, reasoningText,
//     toolRequests; records repeating a messageId extend one event),
//     assistant.reasoning. A tool call is emitted from the message's
//     toolRequests, or from tool.execution_start when no request named it;
//     an execution_start repeating a request adds only its MCP server.
//   - Tools: bash/powershell are command_start; their result is a
//     command_output and, when the exit code is known (result.contents[]
//     shell_exit/terminal exitCode, else the "<exited with exit code N>"
//     marker Copilot appends to the output, which is removed), a
//     command_finish. create {path, file_text}, edit {path, old_str,
//     new_str}, view, the older str_replace_editor and apply_patch carry
//     file touches. A call with mcpServerName/mcpToolName gets an Activity
//     (protocol "mcp"; result pending until its completion). A failed
//     completion (success false) marks its call as an error too.
//   - Subagents: events with agentId belong to session "<id>/agent-<agentId>";
//     older events with only data.parentToolCallId to "<id>/task-<call id>".
//     Both name the main session as parent and root; subagent.started
//     (agentName, agentDescription) gives their agent type and title.
//   - Session metadata: workspace and branch from session.start's context,
//     else workspace.yaml; title from session.title_changed, else the
//     summary in workspace.yaml; model from the first assistant event, else
//     the last model named (session.start selectedModel,
//     session.model_change, tool completions).
//   - Other events: compaction_start and truncation are compaction events,
//     compaction_complete a summary (its summaryContent); the documented
//     bookkeeping types (turn start/end, session.info, model changes, hooks,
//     permissions, …) are other events; undocumented types are other events
//     counted as unknown_record.
package copilot
