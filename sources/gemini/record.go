package gemini

import (
	"bytes"
	"encoding/json"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// meta is the session metadata: the first line of a JSONL log, the fields
// of a $set patch, or the top level of a legacy document.
type meta struct {
	SessionID   string   `json:"sessionId"`
	ProjectHash string   `json:"projectHash"`
	StartTime   string   `json:"startTime"`
	LastUpdated string   `json:"lastUpdated"`
	Summary     string   `json:"summary"`
	Kind        string   `json:"kind"`
	Directories []string `json:"directories"`
}

// message is one message record. Fields whose shape varies (content parts,
// tool arguments and results) stay raw until rendered.
type message struct {
	ID             string          `json:"id"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	Thoughts       []thought       `json:"thoughts"`
	Model          string          `json:"model"`
	ToolCalls      []toolCall      `json:"toolCalls"`
}

// thought is a reasoning summary of a gemini message.
type thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

// toolCall is a function call of a gemini message with its result.
type toolCall struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	DisplayName   string          `json:"displayName"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
}

// logRecord is any line of a JSONL log: a message (ID set), a metadata line
// (SessionID set), a $set patch or a $rewindTo.
type logRecord struct {
	message
	meta
	Messages json.RawMessage `json:"messages"`
	Set      json.RawMessage `json:"$set"`
	RewindTo json.RawMessage `json:"$rewindTo"`
}

// setRecord is the value of a $set patch; Messages is a checkpoint.
type setRecord struct {
	meta
	Messages json.RawMessage `json:"messages"`
}

// document is a legacy whole-file chat.
type document struct {
	meta
	Messages []json.RawMessage `json:"messages"`
}

// part is one Gemini API content part.
type part struct {
	Text             *string           `json:"text"`
	Thought          bool              `json:"thought"`
	FunctionCall     *functionCall     `json:"functionCall"`
	FunctionResponse *functionResponse `json:"functionResponse"`
	InlineData       *media            `json:"inlineData"`
	FileData         *media            `json:"fileData"`
}

type functionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResponse struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

type media struct {
	MimeType string `json:"mimeType"`
	FileURI  string `json:"fileUri"`
}

// decodeParts reads a PartListUnion: a string, one part, or an array of
// strings and parts. Elements that are neither are skipped.
func decodeParts(raw json.RawMessage) []part {
	switch jsonx.FirstByte(raw) {
	case '"':
		s := jsonString(raw)
		return []part{{Text: &s}}
	case '{':
		var p part
		_ = json.Unmarshal(raw, &p)
		return []part{p}
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		out := make([]part, 0, len(items))
		for _, it := range items {
			if c := jsonx.FirstByte(it); c == '"' || c == '{' {
				out = append(out, decodeParts(it)...)
			}
		}
		return out
	}
	return nil
}

// decodeMessages decodes a messages array element by element; it returns
// the messages with an id (a message of an unexpected field type keeps what
// decoded) and how many elements were bad.
func decodeMessages(items []json.RawMessage) ([]message, int) {
	out := make([]message, 0, len(items))
	bad := 0
	for _, it := range items {
		var m message
		if jsonx.FirstByte(it) != '{' {
			bad++
			continue
		}
		if err := json.Unmarshal(it, &m); err != nil || m.ID == "" {
			bad++
			if m.ID == "" {
				continue
			}
		}
		out = append(out, m)
	}
	return out, bad
}

// jsonString decodes a JSON string value; other values are returned as
// their compact JSON text, and null as "".
func jsonString(raw json.RawMessage) string {
	switch jsonx.FirstByte(raw) {
	case 0:
		return ""
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case 'n':
		if string(bytes.TrimSpace(raw)) == "null" {
			return ""
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(bytes.TrimSpace(raw))
}

// Size limits of renderings that are not conversation content.
const (
	maxOther  = 2 << 10  // unknown records
	maxNotice = 64 << 10 // info, warning and error messages
)

// snippet is a short, valid UTF-8 rendering of a raw record.
func snippet(raw []byte) string {
	if len(raw) > 2*maxOther {
		raw = raw[:2*maxOther]
	}
	return core.Clip(strings.ToValidUTF8(string(raw), ""), maxOther)
}
