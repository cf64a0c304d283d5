// Package corpus writes synthetic but realistic coding-agent histories: Claude
// Code transcripts and Codex CLI rollouts with the same layouts, record
// envelopes and quirks as the real files. Benchmarks use it to build large
// histories, and a first run uses it as sample history on a machine that has
// none.
//
// Layout under the chosen home directory:
//
//	.claude/projects/<slug>/<session-uuid>.jsonl
//	.claude/projects/<slug>/<session-uuid>/subagents/agent-<17 hex>.jsonl  (+ .meta.json; 2.1.x)
//	.claude/projects/<slug>/agent-<8 hex>.jsonl                            (2.0.x subagents)
//	.codex/sessions/YYYY/MM/DD/rollout-<local time>-<uuidv7>.jsonl          (0.7x envelope)
//
// The slug is the cwd with every non-alphanumeric byte replaced by '-'.
// Codex file names and date directories use a fixed UTC+1 "local" zone, so
// they differ from the UTC timestamps inside, as on a real machine.
//
// Vocabulary:
//   - Event: one normalized unit, counted the way ctx counts them (below).
//   - Session: one transcript file; a subagent run is its own session.
//   - Workspace: one of 20 projects under /home/dev/src; its files and its
//     identifiers are drawn Zipf, so a few are hot and most are rare.
//   - Lexicon: the shared words, 30,000 identifiers and 5,000 paths. It does
//     not depend on the seed, so Append continues any file in kind.
//
// Event counting (Stats.Events and Append's result):
//   - a user prompt: 1 (also a subagent's first prompt and a Codex
//     response_item user message; its event_msg user_message copy: 0);
//   - an assistant message: 1 for its text (and thinking) however many
//     streamed lines share its message.id; each tool_use block: 1 more;
//   - a tool result: 1;
//   - a shell call (Claude Bash, Codex shell_command): 3 in all, the call
//     being the command start and the result its output and finish;
//   - a Codex reasoning item: 1 (its agent_reasoning copy: 0); an
//     agent_message copy of an assistant message: 0;
//   - bookkeeping: 1 each (Claude permission-mode, file-history-snapshot,
//     ai-title, last-prompt, hook attachments; Codex session_meta, the
//     injected environment_context message, turn_context, token_count,
//     ghost_snapshot);
//   - a Claude compaction: 1 for the compact_boundary and 1 for the
//     isCompactSummary user record.
//
// Everything is deterministic for a seed (math/rand/v2 PCG), streamed to
// disk line by line, written with files 0600 and directories 0700.
package corpus
