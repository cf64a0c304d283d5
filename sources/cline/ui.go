package cline

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// parseUIOnly builds the session of a task without API history from the
// rows of its ui_messages.json: prompts, answers, reasoning, tool rows,
// commands with their streamed output, MCP calls and bookkeeping.
func (b *builder) parseUIOnly(rows []json.RawMessage) {
	if b.torn {
		return
	}
	for i, raw := range rows {
		b.at(b.f.Path, i)
		if r, ok := b.decodeRow(raw); ok {
			b.uiEvent(r)
		}
	}
}

// decodeRow decodes one UI row. A partial row is kept: the extensions
// update a streaming row in place (same ts), so a partial row in a saved
// file is the latest state of that message and its final form later
// replaces it under the same key.
func (b *builder) decodeRow(raw json.RawMessage) (*uiRow, bool) {
	var r uiRow
	err := json.Unmarshal(raw, &r)
	if jsonx.FirstByte(raw) != '{' || (err != nil && r.Type == "") {
		b.problem(core.ProblemInvalidRecord)
		return nil, false
	}
	if err != nil {
		b.problem(core.ProblemInvalidRecord) // a field of an unexpected type: keep what decoded
	}
	return &r, true
}

// uiKey is a row's identity: its ts (rows sharing a ts are told apart by
// occurrence when the session is finalized).
func uiKey(r *uiRow) string { return "u" + strconv.FormatInt(r.Ts, 10) }

func (b *builder) uiEvent(r *uiRow) {
	if t := millis(r.Ts); !t.IsZero() {
		b.now = t
	}
	key := uiKey(r)
	if e, ok := b.rangeEvent(r, key); ok {
		b.add(e)
	}
	kind, known := rowKind(r)
	if kind != uiCommandOutput || !known {
		b.out = -1
	}
	switch {
	case !known:
		b.unknown(key, r.kind())
	case kind == uiPrompt:
		b.prompt(key, r.Text)
	case kind == uiAnswer || kind == uiQuestion:
		b.uiAnswer(key, r, kind)
	case kind == uiReasoning:
		b.reasoning(key, first(r.Text, r.Reasoning), r.model())
	case kind == uiCondense || kind == uiTruncation:
		b.add(condenseEvent(r, key, kind))
	default:
		b.uiCall(key, r, kind)
	}
}

// uiAnswer emits assistant text; questions and plans are JSON
// {question|response, options}.
func (b *builder) uiAnswer(key string, r *uiRow, kind uiKind) {
	text := r.Text
	if kind == uiQuestion && jsonx.FirstByte([]byte(text)) == '{' {
		var q struct {
			Question string `json:"question"`
			Response string `json:"response"`
		}
		if json.Unmarshal([]byte(text), &q) == nil {
			text = first(q.Question, q.Response, text)
		}
	}
	text = strings.TrimSuffix(strings.TrimSpace(text), "HAS_CHANGES")
	if text = strings.TrimSpace(text); text != "" {
		b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeMessage, Text: text, Model: r.model(), Key: key})
	}
}

// uiCall handles tool, command and MCP rows and bookkeeping.
func (b *builder) uiCall(key string, r *uiRow, kind uiKind) {
	switch kind {
	case uiTool:
		b.uiTool(key, r)
	case uiCommand:
		b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeCommandStart, Tool: "execute_command",
			Command: r.Text, Text: r.Text, Model: r.model(), Key: key})
	case uiCommandOutput:
		b.uiCommandOutput(key, r)
	case uiMCPCall:
		b.uiMCP(key, r)
	case uiMCPResult:
		if c := b.mcp; c != nil {
			b.mcp = nil
			b.mcpOutput(c, key, r.Text, false)
			return
		}
		b.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: "use_mcp_tool", Text: r.Text, Key: key})
	case uiError:
		b.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: r.kind(),
			Text: core.Clip(r.Text, maxOther), IsError: true, Key: key})
	case uiAPIRequest:
		b.uiAPIRequest(key, r)
	default:
		b.other(key, r.kind(), first(r.Text, r.kind()))
	}
}

// uiCommandOutput merges consecutive command_output rows (the output is
// streamed) into one event keyed by the first row.
func (b *builder) uiCommandOutput(key string, r *uiRow) {
	if b.out >= 0 {
		e := &b.ps.Events[b.out]
		if r.Text != "" {
			if e.Text != "" {
				e.Text += "\n"
			}
			e.Text += r.Text
		}
		return
	}
	cmd := ""
	for i := len(b.ps.Events) - 1; i >= 0; i-- {
		if e := &b.ps.Events[i]; e.Type == core.TypeCommandStart {
			cmd = e.Command
			break
		}
	}
	b.out = b.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandOutput, Tool: "execute_command",
		Command: cmd, Text: r.Text, Key: key})
}

// uiTool emits a file tool row as a tool call with the files it touches.
func (b *builder) uiTool(key string, r *uiRow) {
	var t struct {
		Tool    string `json:"tool"`
		Path    string `json:"path"`
		Content string `json:"content"`
		Diff    string `json:"diff"`
	}
	_ = json.Unmarshal([]byte(r.Text), &t)
	var files []core.FileTouch
	switch t.Tool {
	case "readFile":
		files = touch(t.Path, core.FileTouch{Op: core.OpRead})
	case "editedExistingFile", "appliedDiff":
		files = diffEdits(t.Path, first(t.Diff, t.Content))
	case "newFileCreated":
		files = touch(t.Path, core.FileTouch{Op: core.OpCreate, NewText: t.Content})
	case "fileDeleted":
		files = touch(t.Path, core.FileTouch{Op: core.OpDelete})
	}
	b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: first(t.Tool, "tool"),
		Text: jsonx.RenderArgs(json.RawMessage(r.Text)), Files: files, Model: r.model(), Key: key})
}

// uiMCP emits an MCP request row: JSON {type, serverName, toolName,
// arguments, uri}.
func (b *builder) uiMCP(key string, r *uiRow) {
	var m struct {
		Type       string `json:"type"`
		ServerName string `json:"serverName"`
		ToolName   string `json:"toolName"`
		Arguments  string `json:"arguments"`
	}
	_ = json.Unmarshal([]byte(r.Text), &m)
	c := &call{key: key, name: first(m.Type, "use_mcp_tool"), kind: callMCP, server: m.ServerName, tool: m.ToolName}
	e := core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: c.name,
		Text: jsonx.RenderArgs(json.RawMessage(r.Text)), Model: r.model(), Key: key}
	if c.name == "use_mcp_tool" {
		e.Activity = activity(c, capture(m.Arguments), core.CapturePending)
	}
	c.idx = b.add(e)
	b.mcp = c
}

// uiAPIRequest keeps an API request row as a short other event; its
// request text names the working directory.
func (b *builder) uiAPIRequest(key string, r *uiRow) {
	var q struct {
		Request   string   `json:"request"`
		TokensIn  *int64   `json:"tokensIn"`
		TokensOut *int64   `json:"tokensOut"`
		Cost      *float64 `json:"cost"`
	}
	_ = json.Unmarshal([]byte(r.Text), &q)
	b.noteCwd(q.Request)
	text := "api request"
	if q.TokensIn != nil && q.TokensOut != nil {
		text += " tokens_in=" + strconv.FormatInt(*q.TokensIn, 10) + " tokens_out=" + strconv.FormatInt(*q.TokensOut, 10)
	}
	if q.Cost != nil {
		text += " cost=" + strconv.FormatFloat(*q.Cost, 'f', -1, 64)
	}
	b.other(key, r.kind(), text)
}

// condenseEvent is a Roo condensation summary or truncation boundary.
func condenseEvent(r *uiRow, key string, kind uiKind) core.Event {
	if kind == uiCondense && r.ContextCondense != nil && r.ContextCondense.Summary != "" {
		return core.Event{Role: core.RoleSystem, Type: core.TypeSummary, Native: r.kind(),
			Text: r.ContextCondense.Summary, Key: key}
	}
	return core.Event{Role: core.RoleSystem, Type: core.TypeCompaction, Native: r.kind(),
		Text: first(r.Text, "context truncated"), Key: key}
}

// rangeEvent returns a compaction event when a row carries a new
// conversationHistoryDeletedRange (Cline's context truncation).
func (b *builder) rangeEvent(r *uiRow, key string) (core.Event, bool) {
	raw := bytes.TrimSpace(r.DeletedRange)
	if len(raw) == 0 || string(raw) == "null" {
		return core.Event{}, false
	}
	span := string(raw)
	var rng []int
	if json.Unmarshal(raw, &rng) == nil && len(rng) == 2 {
		span = strconv.Itoa(rng[0]) + "-" + strconv.Itoa(rng[1])
	}
	if span == b.ranges {
		return core.Event{}, false
	}
	b.ranges = span
	return core.Event{Role: core.RoleSystem, Type: core.TypeCompaction, Native: "conversation_history_deleted_range",
		Text:      "context truncated: messages " + span + " left out of the model's view",
		Timestamp: millis(r.Ts), Key: key + "/range"}, true
}

// extra is a UI record merged into an API history.
type extra struct {
	ev        core.Event
	reasoning bool
}

// uiExtras holds the UI records that API histories lack (visible
// reasoning, context truncation and condensation), by the index of the
// API message they precede: a row with conversationHistoryIndex k was
// written while the history had k+1 messages, before message k+1.
type uiExtras struct {
	at map[int][]extra
}

func (b *builder) uiExtras(rows []json.RawMessage) *uiExtras {
	x := &uiExtras{at: map[int][]extra{}}
	path := b.sibling(UIFile)
	for i, raw := range rows {
		b.at(path, i)
		r, ok := b.decodeRow(raw)
		if !ok {
			continue
		}
		slot := 0
		if r.HistoryIndex != nil && *r.HistoryIndex >= 0 {
			slot = *r.HistoryIndex + 1
		}
		x.at[slot] = append(x.at[slot], b.extraEvents(r)...)
	}
	return x
}

// extraEvents returns the events a UI row adds to an API history.
func (b *builder) extraEvents(r *uiRow) []extra {
	key, ts := uiKey(r), millis(r.Ts)
	var out []extra
	if e, ok := b.rangeEvent(r, key); ok {
		out = append(out, extra{ev: e})
	}
	kind, known := rowKind(r)
	switch {
	case !known:
		b.problem(core.ProblemUnknownRecord)
		out = append(out, extra{ev: core.Event{Role: core.RoleSystem, Type: core.TypeOther,
			Native: r.kind(), Text: r.kind(), Timestamp: ts, Key: key}})
	case kind == uiReasoning && strings.TrimSpace(first(r.Text, r.Reasoning)) != "":
		out = append(out, extra{reasoning: true, ev: core.Event{Role: core.RoleAssistant,
			Type: core.TypeReasoning, Text: first(r.Text, r.Reasoning), Model: r.model(), Timestamp: ts, Key: key}})
	case kind == uiCondense || kind == uiTruncation:
		e := condenseEvent(r, key, kind)
		e.Timestamp = ts
		out = append(out, extra{ev: e})
	}
	return out
}

// flush emits the records that precede API message i; reasoning is left
// out when the message carries its own.
func (x *uiExtras) flush(b *builder, i int, hasReasoning bool) {
	if x == nil {
		return
	}
	for _, e := range x.at[i] {
		if !(e.reasoning && hasReasoning) {
			b.add(e.ev)
		}
	}
	delete(x.at, i)
}

// flushRest emits the records after the last API message (a response in
// progress).
func (x *uiExtras) flushRest(b *builder, n int) {
	if x == nil {
		return
	}
	var slots []int
	for s := range x.at {
		if s >= n {
			slots = append(slots, s)
		}
	}
	sort.Ints(slots)
	for _, s := range slots {
		x.flush(b, s, false)
	}
}
