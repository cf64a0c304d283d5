package codex

import (
	"bytes"
	"encoding/json"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// record is one line of a rollout. Envelope lines fill Timestamp, Type and
// Payload; legacy lines are a bare item (the embedded fields) or a bare
// session meta (ID, Timestamp and the embedded Git).
type record struct {
	Timestamp  string `json:"timestamp"`
	Type       string `json:"type"`
	Payload    *item  `json:"payload"`
	RecordType string `json:"record_type"`
	ID         string `json:"id"`
	item
}

// item is the union of the payload shapes ctx reads. Fields whose shape
// varies between versions are decoded by tolerant types.
type item struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`

	// session_meta and turn_context
	Cwd        string          `json:"cwd"`
	Originator string          `json:"originator"`
	CLIVersion string          `json:"cli_version"`
	Source     json.RawMessage `json:"source"`
	Git        *gitInfo        `json:"git"`
	Model      string          `json:"model"`
	Effort     string          `json:"effort"`

	// message and reasoning
	Role    string `json:"role"`
	Content parts  `json:"content"`
	Summary parts  `json:"summary"`

	// calls and their outputs
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	Arguments json.RawMessage `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    output          `json:"output"`
	Action    json.RawMessage `json:"action"`

	// event_msg and compacted
	Message     string          `json:"message"`
	Text        string          `json:"text"`
	Kind        string          `json:"kind"`
	Reason      string          `json:"reason"`
	Info        *tokenInfo      `json:"info"`
	GhostCommit *ghostCommit    `json:"ghost_commit"`
	Invocation  *mcpInvocation  `json:"invocation"`
	Result      json.RawMessage `json:"result"`
}

type gitInfo struct {
	Branch string `json:"branch"`
}

type ghostCommit struct {
	ID string `json:"id"`
}

type tokenUsage struct {
	Input  int64 `json:"input_tokens"`
	Cached int64 `json:"cached_input_tokens"`
	Output int64 `json:"output_tokens"`
	Total  int64 `json:"total_tokens"`
}

type tokenInfo struct {
	Total  *tokenUsage `json:"total_token_usage"`
	Last   *tokenUsage `json:"last_token_usage"`
	Window int64       `json:"model_context_window"`
}

type mcpInvocation struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// part is one content block: input_text, output_text, summary_text,
// reasoning_text, text or input_image.
type part struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// parts decodes an array of content blocks, a bare string (one text block)
// or anything else (nothing) without failing the record.
type parts []part

func (p *parts) UnmarshalJSON(b []byte) error {
	switch jsonx.FirstByte(b) {
	case '[':
		var ps []part
		if jsonx.Decode(b, &ps) == nil {
			*p = ps
		}
	case '"':
		var s string
		if jsonx.Decode(b, &s) == nil {
			*p = parts{{Type: "text", Text: s}}
		}
	}
	return nil
}

// join renders the text blocks, with a placeholder for images.
func (p parts) join(sep string) string {
	switch len(p) {
	case 0:
		return ""
	case 1:
		return p[0].render()
	}
	var b strings.Builder
	for i, x := range p {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(x.render())
	}
	return b.String()
}

func (x part) render() string {
	if x.Type == "input_image" || x.Type == "image" {
		return "[image]"
	}
	return x.Text
}

// output is a call output: a string (the usual form), an array of content
// blocks, or an object {content, success}.
type output struct {
	Text   string
	Failed bool
}

func (o *output) UnmarshalJSON(b []byte) error {
	switch jsonx.FirstByte(b) {
	case '"':
		o.Text = unquote(b)
	case '[':
		var ps parts
		_ = ps.UnmarshalJSON(b)
		o.Text = ps.join("\n")
	case '{':
		var v struct {
			Content json.RawMessage `json:"content"`
			Success *bool           `json:"success"`
		}
		if jsonx.Decode(b, &v) == nil {
			var ps parts
			_ = ps.UnmarshalJSON(v.Content)
			o.Text = ps.join("\n")
			o.Failed = v.Success != nil && !*v.Success
		}
	}
	return nil
}

// jsonString decodes a JSON string value; other values are returned as
// their JSON text.
func jsonString(raw json.RawMessage) string {
	if jsonx.FirstByte(raw) != '"' {
		return string(bytes.TrimSpace(raw))
	}
	return unquote(raw)
}

// maxOther bounds the text of bookkeeping (other) events.
const maxOther = 300

// snippet is a short rendering of a record for other events: its payload
// when it has one, else the whole line, clipped.
func snippet(line []byte) string {
	if i := bytes.Index(line, []byte(`"payload":`)); i >= 0 {
		line = line[i+len(`"payload":`):]
	}
	if len(line) > 2*maxOther {
		line = line[:2*maxOther]
	}
	return core.Clip(strings.ToValidUTF8(string(line), ""), maxOther)
}
