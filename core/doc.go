// Package core holds the normalized model of ctx and its import pipeline.
//
// Vocabulary:
//   - Session: one conversation of one agent (a subagent run is its own
//     session, linked to its parent and carrying the same root session id).
//   - Event: one normalized unit of a session: a user prompt, one assistant
//     message (however many streamed lines it took), a tool call or command
//     start, a tool result, command output or finish, a summary, or an
//     "other" bookkeeping or unknown record kept verbatim.
//   - SessionID / EventID: stable derived identities printed as ses_… and
//     evt_…; re-importing the same history yields the same ids.
//   - Class and Scope: the query-time search classes of spec 000 and their
//     weights.
//   - Chunk: a fixed run of a session's events stored as one object, so that
//     an appended transcript rewrites only its tail chunk.
//   - Problem: a counted, content-free import issue with a stable code.
package core
