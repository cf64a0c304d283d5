package cline

import (
	"encoding/json"
	"strconv"
	"time"

	"ctx/sources/jsonx"
)

// modelInfo is the model stamp of an API message or UI row (Cline 3.x+).
type modelInfo struct {
	ModelID    string `json:"modelId"`
	ProviderID string `json:"providerId"`
	Mode       string `json:"mode"`
}

// id is the model's id ("" without a stamp).
func (m *modelInfo) id() string {
	if m == nil {
		return ""
	}
	return m.ModelID
}

// apiMessage is one element of api_conversation_history.json: an
// Anthropic-style message plus Cline's ts/modelInfo and Roo's condense
// markers.
type apiMessage struct {
	Role               string          `json:"role"`
	Content            json.RawMessage `json:"content"`
	Ts                 int64           `json:"ts"`
	ModelInfo          *modelInfo      `json:"modelInfo"`
	IsSummary          bool            `json:"isSummary"`
	IsTruncationMarker bool            `json:"isTruncationMarker"`
}

// block is one content block of an API message.
type block struct {
	jsonx.Block
	CallID    string          `json:"call_id"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// blocks returns the message content as blocks: a string content is one
// text block. ok is false when the content has an unexpected shape.
func (m *apiMessage) blocks() (bs []block, ok bool) {
	bs, ok = jsonx.Blocks(m.Content, func(s string) block { return block{Block: jsonx.Block{Type: "text", Text: s}} })
	// A block of an unexpected shape fails only itself: decoding goes on,
	// and blocks without a type are dropped.
	out := bs[:0]
	for _, b := range bs {
		if b.Type == "" {
			ok = false
			continue
		}
		out = append(out, b)
	}
	return out, ok
}

func (m *apiMessage) model() string { return m.ModelInfo.id() }

// uiRow is one element of ui_messages.json.
type uiRow struct {
	Ts                int64           `json:"ts"`
	Type              string          `json:"type"`
	Say               string          `json:"say"`
	Ask               string          `json:"ask"`
	Text              string          `json:"text"`
	Reasoning         string          `json:"reasoning"`
	ModelInfo         *modelInfo      `json:"modelInfo"`
	HistoryIndex      *int            `json:"conversationHistoryIndex"`
	DeletedRange      json.RawMessage `json:"conversationHistoryDeletedRange"`
	ContextCondense   *condense       `json:"contextCondense"`
	ContextTruncation json.RawMessage `json:"contextTruncation"`
}

// condense is Roo's contextCondense payload of a condense_context row.
type condense struct {
	Summary string `json:"summary"`
}

// kind returns "say:<value>" or "ask:<value>", the row's native type.
func (r *uiRow) kind() string {
	switch r.Type {
	case "say":
		return "say:" + r.Say
	case "ask":
		return "ask:" + r.Ask
	}
	return r.Type
}

func (r *uiRow) model() string { return r.ModelInfo.id() }

// historyItem is Roo's per-task history_item.json (also the shape of the
// task history entries of Cline and Kilo Code).
type historyItem struct {
	ID           string `json:"id"`
	RootTaskID   string `json:"rootTaskId"`
	ParentTaskID string `json:"parentTaskId"`
	Task         string `json:"task"`
	Workspace    string `json:"workspace"`
	Mode         string `json:"mode"`
}

// taskMetadata is the part of task_metadata.json that names models.
type taskMetadata struct {
	ModelUsage []struct {
		ModelID string `json:"model_id"`
	} `json:"model_usage"`
}

// millis converts epoch milliseconds to UTC; 0 is the zero time.
func millis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// maxOther bounds the text of bookkeeping (other) events.
const maxOther = 300

func itoa(n int) string { return strconv.Itoa(n) }
