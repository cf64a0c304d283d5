package amp

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/jsonx"
)

// call is a tool call waiting for its result.
type call struct {
	id      string
	name    string
	command string // Bash
	server  string // MCP
	tool    string
	idx     int // index of the call event
}

// builder collects one thread's session. Event keys derive from message
// ids (the index when a message has none), block indexes and tool call
// ids, so a thread rewritten with more messages keeps its events' ids.
type builder struct {
	f        core.SourceFile
	ps       core.ParsedSession
	problems []core.Problem
	now      time.Time
	calls    map[string]*call
	model    string
	prompt   string
}

func (b *builder) problem(code string, line int) {
	b.problems = append(b.problems, core.Problem{Code: code, Provider: ProviderAmp, Path: b.f.Path, Line: line})
}

func (b *builder) add(e core.Event) int {
	if e.Timestamp.IsZero() {
		e.Timestamp = b.now
	}
	return b.ps.Append(e)
}

func (b *builder) other(key, native, text string) {
	b.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: native, Text: core.Clip(text, maxOther), Key: key})
}

// unknown keeps a message or block of an unknown type as an other event
// and counts it at the message's 1-based index.
func (b *builder) unknown(key, native string, line int) {
	b.problem(core.ProblemUnknownRecord, line)
	b.other(key, native, native)
}

// thread emits the thread's relationships and messages.
func (b *builder) thread(t *thread) {
	b.now = millis(t.Created)
	for i, r := range t.Relationships {
		b.other("rel/"+strconv.Itoa(i), "relationship", strings.Join([]string{r.Type, r.Role, r.ThreadID}, " "))
	}
	times := t.ledgerTimes()
	for i, raw := range t.Messages {
		b.message(i, raw, times)
	}
}

// message normalizes one message by role.
func (b *builder) message(i int, raw json.RawMessage, times map[int]time.Time) {
	var m message
	err := json.Unmarshal(raw, &m)
	if jsonx.FirstByte(raw) != '{' || (err != nil && m.Role == "") {
		b.problem(core.ProblemInvalidRecord, i+1)
		return
	}
	if err != nil {
		b.problem(core.ProblemInvalidRecord, i+1)
	}
	key := "i" + strconv.Itoa(i)
	if m.MessageID != nil {
		key = "m" + strconv.Itoa(*m.MessageID)
		if ts, ok := times[*m.MessageID]; ok {
			b.now = ts
		}
	}
	b.stamp(&m)
	blocks, ok := m.blocks()
	if !ok {
		b.problem(core.ProblemInvalidRecord, i+1)
	}
	model := ""
	if m.Usage != nil {
		model = m.Usage.Model
	}
	if b.model == "" {
		b.model = model
	}
	for j := range blocks {
		b.block(key+"/"+strconv.Itoa(j), m.Role, &blocks[j], model, i+1)
	}
}

// blocks returns the content blocks; a string content is one text block.
func (m *message) blocks() ([]block, bool) {
	return jsonx.Blocks(m.Content, func(s string) block { return block{Block: jsonx.Block{Type: "text", Text: s}} })
}

// stamp takes a message's own time: meta.sentAt (user) or
// usage.timestamp (assistant).
func (b *builder) stamp(m *message) {
	if m.Meta != nil && m.Meta.SentAt > 0 {
		b.now = millis(m.Meta.SentAt)
	}
	if m.Usage != nil && m.Usage.Timestamp != "" {
		if ts, err := time.Parse(time.RFC3339Nano, m.Usage.Timestamp); err == nil {
			b.now = ts.UTC()
		}
	}
}

// block normalizes one content block of a message with the given role.
func (b *builder) block(key, role string, bl *block, model string, line int) {
	switch {
	case bl.Type == "text" && role == "user":
		if t := strings.TrimSpace(bl.Text); t != "" {
			if b.prompt == "" {
				b.prompt = t
			}
			b.add(core.Event{Role: core.RoleUser, Type: core.TypeMessage, Text: t, Key: key})
		}
	case bl.Type == "text" && role == "assistant":
		if t := strings.TrimSpace(bl.Text); t != "" {
			b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeMessage, Text: t, Model: model, Key: key})
		}
	case bl.Type == "text" && role == "info":
		b.other(key, "info", bl.Text)
	case bl.Type == "thinking":
		if strings.TrimSpace(bl.Thinking) != "" {
			b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeReasoning, Text: bl.Thinking, Model: model, Key: key})
		}
	case bl.Type == "redacted_thinking":
		b.other(key, bl.Type, "redacted thinking")
	case bl.Type == "tool_use":
		b.toolUse(key, bl, model)
	case bl.Type == "tool_result":
		b.toolResult(key, bl)
	case bl.Type == "summary":
		b.add(core.Event{Role: core.RoleSystem, Type: core.TypeSummary, Native: "summary", Text: summaryText(bl.Summary), Key: key})
	case bl.Type == "image":
		b.other(key, bl.Type, bl.Type)
	case role != "user" && role != "assistant" && role != "info":
		b.unknown(key, "role:"+role, line)
	default:
		b.unknown(key, "block:"+bl.Type, line)
	}
}

// summaryText renders a summary block's payload: {type, summary} or a
// string.
func summaryText(raw json.RawMessage) string {
	var s struct {
		Summary string `json:"summary"`
	}
	if jsonx.FirstByte(raw) == '{' && json.Unmarshal(raw, &s) == nil && s.Summary != "" {
		return s.Summary
	}
	return jsonx.String(raw)
}

// result returns the problems of a file that yields no session.
func (b *builder) result() core.ParseResult {
	return core.ParseResult{Problems: b.problems}
}

// finish returns the thread's session, or none when it has no events.
func (b *builder) finish(t *thread) core.ParseResult {
	res := b.result()
	if len(b.ps.Events) == 0 {
		return res
	}
	s := &b.ps.Session
	s.Provider = ProviderAmp
	s.NativeID = t.ID
	if s.NativeID == "" {
		s.NativeID = strings.TrimSuffix(filepath.Base(b.f.Path), ".json")
	}
	if s.NativeID == "" || s.NativeID == "." || s.NativeID == string(filepath.Separator) {
		s.NativeID = "unknown"
	}
	s.Workspace, s.GitBranch = t.workspace(), t.branch()
	s.Model = b.model
	if s.Model == "" {
		s.Model = t.tagModel()
	}
	s.Title = t.Title
	if s.Title == "" {
		s.Title = core.Clip(firstLine(b.prompt), 200)
	}
	s.Started = millis(t.Created)
	b.ps.Finalize()
	res.Sessions = []core.ParsedSession{b.ps}
	return res
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

func millis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
