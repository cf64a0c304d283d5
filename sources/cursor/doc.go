// Package cursor reads the chats of the Cursor IDE from its SQLite
// databases into the normalized model: one database yields many sessions,
// one per composer or chat tab.
//
// Vocabulary:
//   - User directory: <config>/Cursor/User — $XDG_CONFIG_HOME/Cursor/User
//     (else ~/.config/Cursor/User) on Linux, ~/Library/Application
//     Support/Cursor/User on macOS, %APPDATA%\Cursor\User on Windows. It
//     holds globalStorage/state.vscdb and workspaceStorage/<hash>/state.vscdb
//     (with workspace.json naming the workspace folder).
//   - state.vscdb: a live, WAL-backed SQLite database with key/value tables.
//     It is opened read-only (mode=ro, never immutable, so the -wal is read)
//     with a bounded busy timeout, and read in one read transaction; its
//     -wal and -shm are the source file's companions. A database locked
//     past the timeout fails the parse with a core.ReadError of code
//     database_locked, so what was imported before is kept and the next
//     import reads it again.
//   - cursorDiskKV: the global table of conversations (2025 onward). Only
//     composerData:*, bubbleId:* and composer.content.* keys are read.
//   - ItemTable: settings and auth tokens, and in 2024 workspace databases
//     the chats. Only three keys are ever read: the chat panel
//     (workbench.panel.aichat.view.aichat.chatdata), the composers
//     (composer.composerData) and the prompt history (aiService.prompts).
//   - Composer: one agent/chat conversation, a composerData:<id> value with
//     a version _v (16 in 2026), its name, epoch-millisecond times, model,
//     tracked git repositories (workspace and branch) and the ordered
//     headers of its bubbles (fullConversationHeadersOnly). Older composers
//     keep their bubbles inline in "conversation". A composer newer than
//     the known version is parsed best-effort and counted as
//     unknown_version; a header whose bubble row is missing is counted as
//     missing_bubble. A composer without events (a draft) is no session.
//   - Subagent: a composer listed in another's subagentComposerIds (or
//     naming its parent in subagentInfo.parentComposerId); its session has
//     the parent's native id as ParentNativeID and the top of the chain as
//     RootNativeID.
//   - Bubble: one message, bubbleId:<composer>:<bubble> (type 1 user, 2
//     assistant, ISO createdAt). An assistant bubble gives a reasoning
//     event (thinking), a message (text) and/or a tool call
//     (toolFormerData). Empty bubbles give nothing; other types are other
//     events and unknown_record problems. Event keys are the bubble id
//     plus a suffix (/thinking, /call, /output, /finish), so they survive
//     re-imports and growth.
//   - Tool call: toolFormerData {toolCallId, name, tool, params, result,
//     status, additionalData}, params and result JSON inside strings. A
//     call gets its output event once it has a result, an error or a final
//     status. Terminal tools (run_terminal_command_v2) are command_start,
//     command_output and command_finish; the exit code is taken from
//     result.exitCode when present (the 2026 sample has none). File tools
//     keep their files: reads, deletes, search_replace old/new text,
//     writes, and edit_file_v2 with its before/after contents from
//     composer.content.<sha256> rows when they exist, its
//     additionalData.precomputedDiff as a unified patch, and a new file's
//     text rebuilt from a complete diff. MCP calls (tool 19 or a name
//     mcp_<server>_<tool>) carry an Activity.
//   - 2024 formats: chat panel tabs (one session per tab, bubbles "user" /
//     "ai", dated only by the tab's lastSendTime), workspace composers with
//     inline conversations whose code blocks are kept as edits of their
//     files, and the prompt history (one session "prompts:<workspace
//     hash>" of other events, since it repeats the conversations' prompts).
package cursor
