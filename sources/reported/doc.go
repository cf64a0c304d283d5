// Package reported is ctx's own history source: sessions that agents
// report about themselves through save_session and ingest_context, kept in
// an inbox under $CTX_HOME and imported as sessions of provider
// ctx-reported like any agent's history.
//
// Vocabulary:
//   - Report: what an agent says about its session (summary, decisions,
//     open items, handoff package, ...): untrusted agent-reported data.
//   - Record: one line of the inbox: a report with the provenance the door
//     recorded (reported_by agent, door mcp-stdio|mcp-http|cli, client,
//     harness, received_at), never taken from the payload.
//   - Reported session: every record with the same id; each record is a
//     revision, and a re-save keeps the earlier revisions.
//   - Inbox: $CTX_HOME/inbox/reported.jsonl, appended under an exclusive
//     file lock and fsynced before a save is acknowledged; files 0600.
//   - Remove: a record that takes a reported session out of the next
//     import (ctx ingest rm).
package reported
