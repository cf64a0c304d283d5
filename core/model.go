package core

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"ctx/objects"
)

// Provider ids of the built-in sources.
const (
	ProviderClaude = "claude-code"
	ProviderCodex  = "codex"
)

// SessionID is the stable identity of a session: derived from the provider and
// the provider's own session identity, the same on every re-import and machine.
type SessionID [16]byte

// EventID is the stable identity of an event within the store.
type EventID [16]byte

const (
	sessionPrefix = "ses_"
	eventPrefix   = "evt_"
)

// ErrInvalidID is returned when text is not a session or event id.
var ErrInvalidID = errors.New("invalid ctx id")

// NewSessionID derives a session id from the provider and its native identity.
func NewSessionID(provider, native string) SessionID {
	h := objects.HashParts("ctx-session", provider, native)
	var id SessionID
	copy(id[:], h[:16])
	return id
}

// NewEventID derives an event id from its session and a key that is stable
// within the session (a provider record id, or an ordinal where none exists).
func NewEventID(s SessionID, key string) EventID {
	h := objects.HashParts("ctx-event", s.String(), key)
	var id EventID
	copy(id[:], h[:16])
	return id
}

func (id SessionID) String() string { return sessionPrefix + hex.EncodeToString(id[:]) }
func (id EventID) String() string   { return eventPrefix + hex.EncodeToString(id[:]) }

// IsZero reports whether the id is unset.
func (id SessionID) IsZero() bool { return id == SessionID{} }

// IsZero reports whether the id is unset.
func (id EventID) IsZero() bool { return id == EventID{} }

func parse16(s, prefix string) ([16]byte, error) {
	var out [16]byte
	if !strings.HasPrefix(s, prefix) || len(s) != len(prefix)+32 {
		return out, fmt.Errorf("%w: want %s followed by 32 hex digits", ErrInvalidID, prefix)
	}
	if _, err := hex.Decode(out[:], []byte(s[len(prefix):])); err != nil {
		return out, fmt.Errorf("%w: not hex", ErrInvalidID)
	}
	if strings.ToLower(s) != s {
		return out, fmt.Errorf("%w: not lowercase", ErrInvalidID)
	}
	return out, nil
}

// ParseSessionID parses the printable form ses_<32 hex>.
func ParseSessionID(s string) (SessionID, error) {
	b, err := parse16(s, sessionPrefix)
	return SessionID(b), err
}

// ParseEventID parses the printable form evt_<32 hex>.
func ParseEventID(s string) (EventID, error) {
	b, err := parse16(s, eventPrefix)
	return EventID(b), err
}

func (id SessionID) MarshalText() ([]byte, error) {
	if id.IsZero() {
		return []byte{}, nil
	}
	return []byte(id.String()), nil
}

func (id *SessionID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = SessionID{}
		return nil
	}
	p, err := ParseSessionID(string(b))
	*id = p
	return err
}

func (id EventID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

func (id *EventID) UnmarshalText(b []byte) error {
	p, err := ParseEventID(string(b))
	*id = p
	return err
}

// Role says who produced an event.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleTool      Role = "tool"
)

// EventType is the normalized kind of an event.
type EventType string

const (
	TypeMessage       EventType = "message"        // a user prompt or one assistant message
	TypeReasoning     EventType = "reasoning"      // visible reasoning / thinking text
	TypeSummary       EventType = "summary"        // a summary or compaction summary
	TypeCompaction    EventType = "compaction"     // a compaction boundary marker
	TypeToolCall      EventType = "tool_call"      // a tool invocation (Edit, Read, Task, MCP tools…)
	TypeToolOutput    EventType = "tool_output"    // the result of a tool invocation
	TypeCommandStart  EventType = "command_start"  // a shell command started
	TypeCommandOutput EventType = "command_output" // a shell command's output
	TypeCommandFinish EventType = "command_finish" // a shell command finished (exit code)
	TypeOther         EventType = "other"          // bookkeeping and unknown records, kept verbatim
)

// Class is the search class of an event type (spec 000).
type Class string

const (
	ClassMessage Class = "message"
	ClassSummary Class = "summary"
	ClassCall    Class = "call"
	ClassOutput  Class = "output"
	ClassOther   Class = "other"
)

// EventTypes lists every known event type.
var EventTypes = []EventType{TypeMessage, TypeReasoning, TypeSummary, TypeCompaction, TypeToolCall,
	TypeToolOutput, TypeCommandStart, TypeCommandOutput, TypeCommandFinish, TypeOther}

// Class returns the search class of the event type; unknown and future types
// are ClassOther.
func (t EventType) Class() Class {
	switch t {
	case TypeMessage:
		return ClassMessage
	case TypeSummary, TypeCompaction:
		return ClassSummary
	case TypeToolCall, TypeCommandStart:
		return ClassCall
	case TypeToolOutput, TypeCommandOutput, TypeCommandFinish:
		return ClassOutput
	default:
		return ClassOther
	}
}

// Weight is the query-time weight of a class under the "all" scope (spec 000).
func (c Class) Weight() float64 {
	switch c {
	case ClassMessage:
		return 1.0
	case ClassSummary:
		return 0.9
	case ClassCall:
		return 0.8
	case ClassOutput:
		return 0.6
	default:
		return 0.8
	}
}

// Scope selects classes at query time.
type Scope string

const (
	ScopeAll        Scope = "all"
	ScopeTranscript Scope = "transcript"
	ScopeCalls      Scope = "calls"
	ScopeOutputs    Scope = "outputs"
)

// ErrInvalidScope is returned by ParseScope.
var ErrInvalidScope = errors.New("invalid content scope: want all, transcript, calls or outputs")

// ParseScope parses a scope; the empty string is ScopeAll.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case "":
		return ScopeAll, nil
	case ScopeAll, ScopeTranscript, ScopeCalls, ScopeOutputs:
		return Scope(s), nil
	}
	return "", ErrInvalidScope
}

// Weight returns the weight of an event type under the scope, and false when
// the scope excludes it.
func (s Scope) Weight(t EventType) (float64, bool) {
	c := t.Class()
	switch s {
	case ScopeTranscript:
		return c.Weight(), c == ClassMessage || c == ClassSummary
	case ScopeCalls:
		return 1.0, c == ClassCall
	case ScopeOutputs:
		return 1.0, c == ClassOutput
	default:
		return c.Weight(), true
	}
}

// Types returns the event types the scope selects (nil for all).
func (s Scope) Types() []EventType {
	if s == ScopeAll || s == "" {
		return nil
	}
	var out []EventType
	for _, t := range EventTypes {
		if _, ok := s.Weight(t); ok {
			out = append(out, t)
		}
	}
	return out
}

// File operations of FileTouch.Op.
const (
	OpRead   = "read"
	OpEdit   = "edit"   // a string replacement: OldText → NewText
	OpWrite  = "write"  // a whole-file write: NewText is the content
	OpCreate = "create" // a new file: NewText is the content when known
	OpDelete = "delete"
	OpMove   = "move"
	OpPatch  = "patch" // Patch holds the hunks (apply_patch or unified diff)
)

// Capture states of Invocation.Arguments and Invocation.Result.
const (
	CaptureCaptured = "captured"
	CaptureAbsent   = "absent"
	CapturePending  = "pending"
	CaptureRedacted = "redacted"
)

// FileTouch is a file an event read or changed. For edits, OldText/NewText
// (string replacement edits and whole-file writes) or Patch (unified or
// apply_patch text) are kept so that blame can match lines.
type FileTouch struct {
	Path    string `json:"path"`
	Op      string `json:"op"` // read, edit, write, create, delete, move, patch
	OldText string `json:"old_text,omitempty"`
	NewText string `json:"new_text,omitempty"`
	Patch   string `json:"patch,omitempty"`
	MovedTo string `json:"moved_to,omitempty"`
}

// Activity records an agent's invocation of an MCP tool (spec 000).
type Activity struct {
	Invocation Invocation `json:"invocation"`
}

// Invocation is the qualified MCP call identity inside Activity.
type Invocation struct {
	Protocol       string `json:"protocol"` // "mcp"
	Server         string `json:"server"`
	Tool           string `json:"tool"`
	ProviderCallID string `json:"provider_call_id,omitempty"`
	Arguments      string `json:"arguments_capture"` // captured, absent, redacted
	Result         string `json:"result_capture"`    // captured, absent, pending
}

// Event is one normalized event of a session.
type Event struct {
	ID        EventID     `json:"ctx_event_id"`
	SessionID SessionID   `json:"ctx_session_id"`
	Ordinal   int         `json:"ordinal"`
	Timestamp time.Time   `json:"timestamp"`
	Role      Role        `json:"role"`
	Type      EventType   `json:"event_type"`
	Text      string      `json:"text"`
	Files     []FileTouch `json:"files,omitempty"`
	Tool      string      `json:"tool,omitempty"`    // tool name for tool calls and outputs
	CallID    string      `json:"call_id,omitempty"` // provider call id pairing a call with its output
	Command   string      `json:"command,omitempty"`
	ExitCode  *int        `json:"exit_code,omitempty"`
	IsError   bool        `json:"is_error,omitempty"`
	Model     string      `json:"model,omitempty"`
	Tokens    *Tokens     `json:"tokens,omitempty"`      // usage the agent recorded for this message
	Native    string      `json:"native_type,omitempty"` // the provider's record type, for other events
	Activity  *Activity   `json:"activity,omitempty"`
	// Key is the parser's identity for the event within its session (a
	// provider record id plus a block suffix). It decides ctx_event_id; when
	// empty the ordinal is used.
	Key string `json:"-"`
}

// SourceRef says where a session was read from.
type SourceRef struct {
	Provider string `json:"provider"`
	Root     string `json:"root,omitempty"`
	Group    string `json:"group,omitempty"`
	Path     string `json:"path"`
}

// Session is the metadata of one normalized session.
type Session struct {
	ID              SessionID `json:"ctx_session_id"`
	Provider        string    `json:"provider"`
	NativeID        string    `json:"native_session_id"`
	RootSessionID   SessionID `json:"root_session_id"`
	ParentSessionID SessionID `json:"parent_session_id,omitempty"`
	IsSubagent      bool      `json:"is_subagent"`
	AgentID         string    `json:"agent_id,omitempty"`
	AgentType       string    `json:"agent_type,omitempty"`
	Workspace       string    `json:"workspace,omitempty"`
	GitBranch       string    `json:"git_branch,omitempty"`
	Model           string    `json:"model,omitempty"`
	Title           string    `json:"title,omitempty"`
	Started         time.Time `json:"started"`
	Ended           time.Time `json:"ended"`
	EventCount      int       `json:"event_count"`
	Source          SourceRef `json:"source"`
	// Machine is the machine a session pulled from a remote came from
	// (see gitstore); empty for the sessions imported here.
	Machine string `json:"machine,omitempty"`
}

// ParsedSession is what a parser returns for one session: metadata with the
// native identities filled in, and its events in order. Finalize derives the
// ctx ids, ordinals and counts.
type ParsedSession struct {
	Session Session
	// ParentNativeID is the native id of the parent session for subagents;
	// RootNativeID the native id of the root session (the parent's root).
	ParentNativeID string
	RootNativeID   string
	Events         []Event
}

// Append adds e after the session's events and returns its index.
func (p *ParsedSession) Append(e Event) int {
	p.Events = append(p.Events, e)
	return len(p.Events) - 1
}

// Finalize derives ctx_session_id, root and parent ids, event ids, ordinals,
// start/end times and the event count. Event keys that repeat within the
// session are disambiguated by occurrence so ids stay unique and stable.
func (p *ParsedSession) Finalize() {
	p.FinalizeIdentity()
	s := &p.Session
	seen := make(map[string]int, len(p.Events))
	for i := range p.Events {
		e := &p.Events[i]
		key := EventKey(e, i)
		n := seen[key]
		seen[key] = n + 1
		s.FinalizeEvent(e, i, key, n)
	}
	s.FinalizeTimes(len(p.Events))
}

// FinalizeIdentity derives the session's ctx id and its parent and root ids
// from the native ones: the part of Finalize a streaming parser does once
// the identity is known, before its first events.
func (p *ParsedSession) FinalizeIdentity() {
	s := &p.Session
	s.ID = NewSessionID(s.Provider, s.NativeID)
	if p.ParentNativeID != "" {
		s.ParentSessionID = NewSessionID(s.Provider, p.ParentNativeID)
		s.IsSubagent = true
	}
	switch {
	case p.RootNativeID != "":
		s.RootSessionID = NewSessionID(s.Provider, p.RootNativeID)
	case p.ParentNativeID != "":
		s.RootSessionID = s.ParentSessionID
	default:
		s.RootSessionID = s.ID
	}
}

// EventKey is the key Finalize numbers for the event at ordinal i: its own,
// or "#i" when it has none.
func EventKey(e *Event, i int) string {
	if e.Key == "" {
		return fmt.Sprintf("#%d", i)
	}
	return e.Key
}

// FinalizeEvent gives the event at ordinal i of s its ordinal, session id
// and id, the id taken from key and the number of earlier events of the
// session with the same key, and widens s's time range to its timestamp.
func (s *Session) FinalizeEvent(e *Event, i int, key string, repeats int) {
	e.Ordinal = i
	e.SessionID = s.ID
	if repeats > 0 {
		key = fmt.Sprintf("%s~%d", key, repeats)
	}
	e.ID = NewEventID(s.ID, key)
	if !e.Timestamp.IsZero() {
		e.Timestamp = e.Timestamp.UTC()
		if s.Started.IsZero() || e.Timestamp.Before(s.Started) {
			s.Started = e.Timestamp
		}
		if e.Timestamp.After(s.Ended) {
			s.Ended = e.Timestamp
		}
	}
}

// FinalizeTimes ends a Finalize of n events.
func (s *Session) FinalizeTimes(n int) {
	s.Started, s.Ended = s.Started.UTC(), s.Ended.UTC()
	s.EventCount = n
}
