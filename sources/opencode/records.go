package opencode

import (
	"encoding/json"
	"math"
	"time"
)

// millis is an epoch-milliseconds timestamp as OpenCode writes it. It is a
// float so that a value written as 1.7e12 still decodes.
type millis float64

// Time returns the UTC time, or the zero time when unset or out of range.
func (m millis) Time() time.Time {
	if m <= 0 || m > 1e15 || math.IsNaN(float64(m)) {
		return time.Time{}
	}
	return time.UnixMilli(int64(m)).UTC()
}

// span is a {start, end} or {created, completed} time pair.
type span struct {
	Start     millis `json:"start"`
	End       millis `json:"end"`
	Created   millis `json:"created"`
	Completed millis `json:"completed"`
}

// messageData is message.data (SQLite) or a storage/message file.
type messageData struct {
	Role       string          `json:"role"`
	Time       span            `json:"time"`
	ParentID   string          `json:"parentID"`
	ModelID    string          `json:"modelID"`
	ProviderID string          `json:"providerID"`
	Mode       string          `json:"mode"`
	Agent      string          `json:"agent"`
	Summary    json.RawMessage `json:"summary"` // true on a compaction summary; an object on user messages
	Path       struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Model struct {
		ModelID string `json:"modelID"`
	} `json:"model"`
	Error *recordedError `json:"error"`
}

// recordedError is the error OpenCode records on a message or a part.
type recordedError struct {
	Name string `json:"name"`
	Data struct {
		Message string `json:"message"`
	} `json:"data"`
}

// userSummary is the summary object of a user message (older versions
// wrote a generated body there).
type userSummary struct {
	Body string `json:"body"`
}

// partData is part.data (SQLite) or a storage/part file: the union of the
// fields of every part type.
type partData struct {
	Type      string    `json:"type"`
	Text      string    `json:"text"`
	Synthetic bool      `json:"synthetic"`
	Time      span      `json:"time"`
	Tool      string    `json:"tool"`
	CallID    string    `json:"callID"`
	State     toolState `json:"state"`
	Reason    string    `json:"reason"` // step-finish
	Tokens    struct {
		Total  float64 `json:"total"`
		Input  float64 `json:"input"`
		Output float64 `json:"output"`
	} `json:"tokens"`
	Files       []string       `json:"files"`    // patch
	Hash        string         `json:"hash"`     // patch
	Snapshot    string         `json:"snapshot"` // snapshot, step-start
	Name        string         `json:"name"`     // agent
	Prompt      string         `json:"prompt"`   // subtask
	Description string         `json:"description"`
	Agent       string         `json:"agent"`
	Attempt     float64        `json:"attempt"` // retry
	Error       *recordedError `json:"error"`
	Mime        string         `json:"mime"` // file
	Filename    string         `json:"filename"`
	URL         string         `json:"url"`
	Source      *struct {
		Path string `json:"path"`
	} `json:"source"`
	Auto bool `json:"auto"` // compaction
}

// toolState is the state of a tool part.
type toolState struct {
	Status   string          `json:"status"` // pending, running, completed, error
	Input    json.RawMessage `json:"input"`
	Output   string          `json:"output"`
	Error    string          `json:"error"`
	Title    string          `json:"title"`
	Metadata json.RawMessage `json:"metadata"`
	Time     span            `json:"time"`
}

// legacySession is a storage/session/<projectID>/<sessionID>.json file.
type legacySession struct {
	ID        string `json:"id"`
	ParentID  string `json:"parentID"`
	Directory string `json:"directory"`
	Title     string `json:"title"`
	Time      span   `json:"time"`
}

// sessionModel is the session.model column, {"id","providerID"}.
type sessionModel struct {
	ID string `json:"id"`
}
