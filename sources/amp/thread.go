package amp

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"ctx/sources/jsonx"
)

// thread is a thread file T-<uuid>.json, rewritten whole on every save.
type thread struct {
	V             int               `json:"v"`
	ID            string            `json:"id"`
	Created       int64             `json:"created"`
	Title         string            `json:"title"`
	AgentMode     string            `json:"agentMode"`
	Env           *threadEnv        `json:"env"`
	Messages      []json.RawMessage `json:"messages"`
	Relationships []relationship    `json:"relationships"`
	UsageLedger   *struct {
		Events []ledgerEvent `json:"events"`
	} `json:"usageLedger"`
}

type threadEnv struct {
	Initial struct {
		Trees []tree   `json:"trees"`
		Tags  []string `json:"tags"`
	} `json:"initial"`
}

// tree is a workspace root of the thread: a file:// URI and its git state.
type tree struct {
	DisplayName string `json:"displayName"`
	URI         string `json:"uri"`
	Repository  *struct {
		URL string `json:"url"`
		Ref string `json:"ref"`
		Sha string `json:"sha"`
	} `json:"repository"`
}

// relationship links a thread to another (handoff, fork, mention).
type relationship struct {
	ThreadID string `json:"threadID"`
	Type     string `json:"type"`
	Role     string `json:"role"`
}

// ledgerEvent is a usage ledger entry; inference entries name the
// assistant message they produced and carry the only timestamp it has.
type ledgerEvent struct {
	Timestamp     string `json:"timestamp"`
	OperationType string `json:"operationType"`
	ToMessageID   *int   `json:"toMessageId"`
}

// message is one element of messages[].
type message struct {
	Role      string          `json:"role"`
	MessageID *int            `json:"messageId"`
	Content   json.RawMessage `json:"content"`
	Usage     *struct {
		Model     string `json:"model"`
		Timestamp string `json:"timestamp"`
	} `json:"usage"`
	Meta *struct {
		SentAt int64 `json:"sentAt"`
	} `json:"meta"`
}

// block is a content block: text, thinking, tool_use, tool_result
// (toolUseID and run), summary (info messages).
type block struct {
	jsonx.Block
	ToolUseID string          `json:"toolUseID"`
	Run       *run            `json:"run"`
	Summary   json.RawMessage `json:"summary"`
}

// run is a tool result's execution state.
type run struct {
	Status   string          `json:"status"`
	Result   json.RawMessage `json:"result"`
	Error    json.RawMessage `json:"error"`
	Progress json.RawMessage `json:"progress"`
}

// workspace returns the path of the first tree's file:// URI.
func (t *thread) workspace() string {
	if t.Env == nil || len(t.Env.Initial.Trees) == 0 {
		return ""
	}
	u, err := url.Parse(t.Env.Initial.Trees[0].URI)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' { // file:///c:/… on Windows
		p = p[1:]
	}
	return p
}

// branch returns the first tree's branch (repository.ref without
// refs/heads/).
func (t *thread) branch() string {
	if t.Env == nil || len(t.Env.Initial.Trees) == 0 || t.Env.Initial.Trees[0].Repository == nil {
		return ""
	}
	return strings.TrimPrefix(t.Env.Initial.Trees[0].Repository.Ref, "refs/heads/")
}

// tagModel returns the model named in env tags ("model:<id>").
func (t *thread) tagModel() string {
	if t.Env == nil {
		return ""
	}
	for _, tag := range t.Env.Initial.Tags {
		if m, ok := strings.CutPrefix(tag, "model:"); ok {
			return m
		}
	}
	return ""
}

// ledgerTimes maps assistant message ids to their inference timestamps.
func (t *thread) ledgerTimes() map[int]time.Time {
	out := map[int]time.Time{}
	if t.UsageLedger == nil {
		return out
	}
	for _, e := range t.UsageLedger.Events {
		if e.ToMessageID == nil || e.OperationType != "inference" {
			continue
		}
		if ts, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
			out[*e.ToMessageID] = ts.UTC()
		}
	}
	return out
}

// maxOther bounds the text of bookkeeping (other) events.
const maxOther = 300
