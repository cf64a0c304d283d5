package mcp

import (
	"ctx/app"
	"ctx/sources/reported"
)

const ingestContextDescription = "Push a digest of an agent session into ctx from a harness ctx cannot read " +
	"itself (or whose history failed to import), as an envelope: {\"ctxfile_ingest_schema\": \"2\", " +
	"\"source\": {\"harness\": \"aider\", \"version\": \"...\", \"session_id\": \"...\"}, \"session\": {\"summary\": " +
	"\"...\", ...}}. session takes the fields of save_session (thread, key_decisions, files_touched, open_items, " +
	"continues_from, handoff, state, gotchas, artifacts, suggested_first_prompt) and started_at/ended_at (RFC " +
	"3339). Validation is strict: every unknown or mistyped field is listed in details.errors with how to fix " +
	"it; nothing is stored until the call is valid. The same source.session_id sent again is a new revision of " +
	"the same session. Reports are rate limited per client: a refused call says when to retry (retry_after_ms). " +
	"Records are redacted, stored with the server's provenance and shown everywhere as agent-reported data."

type ingestSource struct {
	Harness   string `json:"harness" jsonschema:"the harness that ran the session, e.g. aider"`
	Version   string `json:"version,omitempty" jsonschema:"the harness's version"`
	SessionID string `json:"session_id,omitempty" jsonschema:"the harness's own session id: the same id again is a new revision"`
}

type ingestSession struct {
	saveSessionFields
	StartedAt string `json:"started_at,omitempty" jsonschema:"RFC 3339 time the session started"`
	EndedAt   string `json:"ended_at,omitempty" jsonschema:"RFC 3339 time the session ended"`
}

// saveSessionFields are save_session's fields without harness.
type saveSessionFields struct {
	Summary              string              `json:"summary" jsonschema:"what the session did, in a few sentences"`
	Title                string              `json:"title,omitempty"`
	Thread               string              `json:"thread,omitempty"`
	KeyDecisions         []reported.Decision `json:"key_decisions,omitempty"`
	FilesTouched         []string            `json:"files_touched,omitempty"`
	OpenItems            []string            `json:"open_items,omitempty"`
	ContinuesFrom        string              `json:"continues_from,omitempty"`
	Handoff              bool                `json:"handoff,omitempty"`
	State                string              `json:"state,omitempty"`
	Gotchas              []string            `json:"gotchas,omitempty"`
	Artifacts            []reported.Artifact `json:"artifacts,omitempty"`
	SuggestedFirstPrompt string              `json:"suggested_first_prompt,omitempty"`
}

type ingestContextInput struct {
	Schema  string        `json:"ctxfile_ingest_schema" jsonschema:"always \"2\""`
	Source  ingestSource  `json:"source"`
	Session ingestSession `json:"session"`
}

func ingestContextTool() toolDef {
	return defineWriteTool[ingestContextInput, app.SaveResult]("ingest_context", "Ingest a session digest",
		ingestContextDescription, nil, runReport("ingest_context", (*app.Handoff).Ingest))
}
