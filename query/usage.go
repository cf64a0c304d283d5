package query

import (
	"ctx/store"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"time"
)

// The read side of local usage accounting (spec 000). The MCP server
// records delivered tool calls into $CTX_HOME/usage.json (mcp.Usage); the
// status read model reports only the compact LocalUsage below. Creating
// $CTX_HOME/usage.disabled turns recording off.

// Usage file names inside $CTX_HOME.
const (
	UsageFile         = "usage.json"
	UsageDisabledFile = "usage.disabled"
)

// Versions of the usage aggregate: what is counted (definition) and how
// long it is kept (retention).
const (
	// UsageDefinitionVersion 1: recognized tools/call requests only, counted
	// after the response line was written and flushed, per tool: calls,
	// outcomes (ok, tool_error, protocol_error), mcp_response_bytes (the
	// serialized JSON-RPC response line including its newline) and the
	// duration from reading the request to flushing the response.
	UsageDefinitionVersion = 1
	// UsageRetentionVersion 1: cumulative counters since the file was
	// created; no per-call records are kept.
	UsageRetentionVersion = 1
)

// States of the compact local usage report.
const (
	UsageStateRecording   = "recording"   // enabled, the aggregate exists and is readable
	UsageStateEmpty       = "empty"       // enabled, nothing recorded yet
	UsageStateDisabled    = "disabled"    // usage.disabled exists
	UsageStateUnavailable = "unavailable" // enabled, but the aggregate cannot be used
)

// Content-free error codes of an unavailable aggregate.
const (
	UsageErrUnreadable = "usage_unreadable" // usage.json cannot be read
	UsageErrInvalid    = "usage_invalid"    // usage.json is damaged or of another version
)

// ToolUsage are the counters of one tool.
type ToolUsage struct {
	Calls            int64 `json:"calls"`
	OK               int64 `json:"ok"`
	ToolErrors       int64 `json:"tool_errors"`
	ProtocolErrors   int64 `json:"protocol_errors"`
	MCPResponseBytes int64 `json:"mcp_response_bytes"`
	DurationMS       int64 `json:"duration_ms"`
}

// UsageAggregate is the content of usage.json.
type UsageAggregate struct {
	DefinitionVersion int                   `json:"definition_version"`
	RetentionVersion  int                   `json:"retention_version"`
	Since             time.Time             `json:"since"`
	Updated           time.Time             `json:"updated"`
	Tools             map[string]*ToolUsage `json:"tools"`
}

// LocalUsage is the compact local usage report in status: enablement,
// state, the definition and retention versions, and a stable content-free
// error code when the aggregate is unavailable. It carries no counts.
type LocalUsage struct {
	Enabled           bool   `json:"enabled" jsonschema:"Whether local usage accounting records delivered tool calls."`
	State             string `json:"state" jsonschema:"recording, empty, disabled or unavailable."`
	DefinitionVersion int    `json:"definition_version" jsonschema:"Version of what is counted."`
	RetentionVersion  int    `json:"retention_version" jsonschema:"Version of how long it is kept."`
	ErrorCode         string `json:"error_code,omitempty" jsonschema:"Why the aggregate is unavailable (usage_unreadable or usage_invalid)."`
}

// ErrUsageInvalid marks an aggregate this version cannot use.
var ErrUsageInvalid = errors.New("usage aggregate is not valid")

// ReadUsage reads the aggregate of the store in home.
func ReadUsage(home string) (*UsageAggregate, error) {
	b, err := os.ReadFile(store.At(home).Usage())
	if err != nil {
		return nil, err
	}
	var a UsageAggregate
	if json.Unmarshal(b, &a) != nil || a.DefinitionVersion != UsageDefinitionVersion ||
		a.RetentionVersion != UsageRetentionVersion {
		return nil, ErrUsageInvalid
	}
	if a.Tools == nil {
		a.Tools = map[string]*ToolUsage{}
	}
	return &a, nil
}

// UsageEnabled reads the control: usage.disabled present means off,
// absent means on; ok is false when it cannot tell.
func UsageEnabled(home string) (enabled, ok bool) {
	_, err := os.Stat(store.At(home).UsageDisabled())
	switch {
	case err == nil:
		return false, true
	case errors.Is(err, fs.ErrNotExist):
		return true, true
	}
	return true, false
}

// CompactUsage is the compact report of the store in home given whether
// recording is enabled. It only reads.
func CompactUsage(home string, enabled bool) LocalUsage {
	r := LocalUsage{Enabled: enabled, DefinitionVersion: UsageDefinitionVersion, RetentionVersion: UsageRetentionVersion}
	if !enabled {
		r.State = UsageStateDisabled
		return r
	}
	_, err := ReadUsage(home)
	switch {
	case err == nil:
		r.State = UsageStateRecording
	case errors.Is(err, fs.ErrNotExist):
		r.State = UsageStateEmpty
	case errors.Is(err, ErrUsageInvalid):
		r.State, r.ErrorCode = UsageStateUnavailable, UsageErrInvalid
	default:
		r.State, r.ErrorCode = UsageStateUnavailable, UsageErrUnreadable
	}
	return r
}

// ReadLocalUsage is the compact report of the store in home as status
// shows it.
func ReadLocalUsage(home string) LocalUsage {
	enabled, _ := UsageEnabled(home)
	return CompactUsage(home, enabled)
}
