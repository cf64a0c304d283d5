// Package cline reads the task histories of three VS Code extensions that
// share one on-disk format: Cline (provider id "cline", extension
// saoudrizwan.claude-dev), Roo Code ("roo-code",
// rooveterinaryinc.roo-cline) and Kilo Code ("kilo-code",
// kilocode.kilo-code). Each is its own core.Provider (New, NewCline,
// NewRooCode, NewKiloCode); one task is one session.
//
// Vocabulary:
//   - Storage dir: <editor user dir>/globalStorage/<extension id>, where
//     the editor user dir is <config>/<Editor>/User for Code, Code -
//     Insiders, Cursor, VSCodium and Windsurf ($XDG_CONFIG_HOME or
//     ~/.config on Linux, ~/Library/Application Support on macOS, $APPDATA
//     on Windows) or ~/.vscode-server/data/User.
//   - Task: a directory tasks/<task id>/ of the storage dir (the id is the
//     creation time in epoch ms; it is the session's native id). Its files
//     are rewritten whole on every change.
//   - API history: api_conversation_history.json, a JSON array of
//     Anthropic-style messages {role, content, ts, modelInfo}. It is the
//     source file of a task; ui_messages.json, task_metadata.json and
//     history_item.json are its companions.
//   - UI log: ui_messages.json, a JSON array of rows {ts, type:"say"|"ask",
//     say|ask, text, partial, conversationHistoryIndex,
//     conversationHistoryDeletedRange}. A task without API history is read
//     from its UI log alone. With API history, only what the API lacks is
//     taken from it: visible reasoning rows, context truncation (a new
//     conversationHistoryDeletedRange becomes a compaction event) and Roo's
//     condensation rows. A row with conversationHistoryIndex k is placed
//     before API message k+1. A partial row (partial:true) is a streaming
//     row that the extension updates in place under the same ts; it is
//     kept as it stands and its final form later replaces it under the
//     same key. Consecutive command_output rows are one output event.
//   - Tool call: a tool_use block (native tool calling, 2025+) or, in older
//     versions, an XML element <tool><param>…</param></tool> in assistant
//     text (with <thinking> sections as reasoning). Results come back as
//     tool_result blocks or as user text "[tool for 'arg'] Result:\n…",
//     paired with the previous assistant message's calls by id, else by
//     tool name in order.
//   - Edits: write_to_file {absolutePath|path, content} is a write;
//     replace_in_file and apply_diff give one edit per SEARCH/REPLACE block
//     ("------- SEARCH … ======= … +++++++ REPLACE", the older "<<<<<<<
//     SEARCH … >>>>>>> REPLACE", Roo's ":start_line:" form); a diff without
//     blocks is kept as a patch. search_and_replace, insert_content and
//     apply_patch are read too. When the result says the user (or the
//     editor's formatter) changed the agent's content, that diff is kept as
//     a patch of the file on the tool output.
//   - Command: execute_command {command}; its exit code is read from the
//     result text ("Command executed successfully (exit code 0).", "Command
//     failed with exit code 1.", Roo's "Exit code: N"); "still running"
//     results have no finish event.
//   - MCP call: use_mcp_tool {server_name, tool_name, arguments}, with an
//     Activity invocation (protocol "mcp").
//   - Injected context: user text the extension writes itself
//     (<environment_details>, attached file contents, task resumption and
//     todo reminders); kept as one other event per message with native
//     type "injected_context". The workspace is the first "Current Working
//     Directory (…)" in it, unless history_item.json names one.
//   - Prompt: text inside <task>, <feedback>, <answer> or <user_message>,
//     or untagged user text that is not injected context.
//   - Child task: a Roo Code subtask whose history_item.json names
//     parentTaskId (and rootTaskId); it is a subagent session.
//   - Event keys: "m<ts>" per API message (its index "i<n>" when it has no
//     ts) plus the block index, provider tool call ids for calls and their
//     outputs, and "u<ts>" for UI rows. None depends on byte offsets, so a
//     task file rewritten with more messages keeps the ids of the earlier
//     events. A file caught mid-rewrite (empty or not valid JSON) is an
//     invalid_json (or empty_file) problem and yields no session, so the
//     previous import of the task stays until the next one. Problems of
//     array elements carry the element's 1-based index as their line.
package cline
