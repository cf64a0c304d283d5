package reported

import (
	"encoding/hex"
	"time"

	"ctx/core"
	"ctx/objects"
)

// Provider is the provider id of reported sessions.
const Provider = "ctx-reported"

// Version is the inbox record format.
const Version = 1

// Doors a record can come through.
const (
	DoorStdio = "mcp-stdio"
	DoorHTTP  = "mcp-http"
	DoorCLI   = "cli"
)

// Kinds of report.
const (
	KindSave   = "save_session"
	KindIngest = "ingest_context"
)

// Record operations.
const (
	OpSave   = "save"
	OpRemove = "remove"
)

// Decision is a key decision and why it was taken.
type Decision struct {
	Decision  string `json:"decision" jsonschema:"what was decided"`
	Rationale string `json:"rationale,omitempty" jsonschema:"why: required when handoff is true"`
}

// Artifact is a file or URL the session produced or relied on, with its role.
type Artifact struct {
	Path string `json:"path" jsonschema:"a path relative to the workspace, or a URL"`
	Role string `json:"role,omitempty" jsonschema:"what it is for the next agent (spec, test, output, log, ...): required when handoff is true"`
}

// Report is what an agent reports about its session.
type Report struct {
	Summary              string     `json:"summary"`
	Title                string     `json:"title,omitempty"`
	Thread               string     `json:"thread,omitempty"`
	KeyDecisions         []Decision `json:"key_decisions,omitempty"`
	FilesTouched         []string   `json:"files_touched,omitempty"`
	OpenItems            []string   `json:"open_items,omitempty"`
	ContinuesFrom        string     `json:"continues_from,omitempty"`
	Handoff              bool       `json:"handoff,omitempty"`
	State                string     `json:"state,omitempty"`
	Gotchas              []string   `json:"gotchas,omitempty"`
	Artifacts            []Artifact `json:"artifacts,omitempty"`
	SuggestedFirstPrompt string     `json:"suggested_first_prompt,omitempty"`
	StartedAt            *time.Time `json:"started_at,omitempty"`
	EndedAt              *time.Time `json:"ended_at,omitempty"`
}

// Client names the MCP client (initialize clientInfo) or the CLI.
type Client struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Provenance is what the door knows about a record. It never comes from the
// payload.
type Provenance struct {
	ReportedBy string `json:"reported_by"` // agent
	Door       string `json:"door"`
	Client     Client `json:"client"`
	Harness    string `json:"harness"`
	Declared   bool   `json:"harness_declared"` // the harness came from the call, not the client
	Token      string `json:"token,omitempty"`  // the HTTP token's id
	Kind       string `json:"kind"`             // save_session or ingest_context
}

// Record is one line of the inbox.
type Record struct {
	V          int        `json:"ctx_reported"`
	Op         string     `json:"op"`
	ID         string     `json:"id"`
	Revision   int        `json:"revision"`
	ReceivedAt time.Time  `json:"received_at"`
	Workspace  string     `json:"workspace,omitempty"`
	Provenance Provenance `json:"provenance"`
	Report     *Report    `json:"report,omitempty"`
	Redactions int        `json:"redactions,omitempty"`
}

// NewID derives a reported session's id from the identity of the session
// on its door (an MCP connection, a harness's own session id).
func NewID(key string) string {
	h := objects.HashParts("ctx-reported", key)
	return "rep_" + hex.EncodeToString(h[:12])
}

// SessionID is the ctx_session_id a reported session gets on import.
func SessionID(id string) core.SessionID { return core.NewSessionID(Provider, id) }
