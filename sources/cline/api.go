package cline

import (
	"encoding/json"
	"strconv"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// parseAPI builds the session from the messages of
// api_conversation_history.json, with the reasoning and context-truncation
// records of ui_messages.json merged in.
func (b *builder) parseAPI(t Task, msgs []json.RawMessage) {
	var x *uiExtras
	if t.UI != nil {
		if rows, ok := b.decodeArray(t.UI, b.sibling(UIFile)); ok {
			x = b.uiExtras(rows)
		}
	}
	if b.torn {
		return
	}
	for i, raw := range msgs {
		b.at(b.f.Path, i)
		b.message(i, raw, x)
	}
	x.flushRest(b, len(msgs))
}

// msgKey is a message's identity: its ts when it has one (Cline stamps
// every message), else its index in the conversation.
func msgKey(i int, ts int64) string {
	if ts > 0 {
		return "m" + strconv.FormatInt(ts, 10)
	}
	return "i" + strconv.Itoa(i)
}

// message normalizes one API message; the UI records that belong before
// it are emitted first.
func (b *builder) message(i int, raw json.RawMessage, x *uiExtras) {
	var m apiMessage
	err := json.Unmarshal(raw, &m)
	if jsonx.FirstByte(raw) != '{' || (err != nil && m.Role == "") {
		b.problem(core.ProblemInvalidRecord)
		x.flush(b, i, false)
		return
	}
	if err != nil {
		b.problem(core.ProblemInvalidRecord) // a field of an unexpected type: keep what decoded
	}
	blocks, ok := m.blocks()
	if !ok {
		b.problem(core.ProblemInvalidRecord)
	}
	x.flush(b, i, hasThinking(blocks))
	if t := millis(m.Ts); !t.IsZero() {
		b.now = t
	}
	key := msgKey(i, m.Ts)
	switch {
	case m.IsSummary:
		b.summary(key, blocks)
	case m.IsTruncationMarker:
		b.add(core.Event{Role: core.RoleSystem, Type: core.TypeCompaction, Native: "truncation_marker",
			Text: "context truncated", Key: key})
	case m.Role == "user":
		b.user(key, blocks)
	case m.Role == "assistant":
		b.assistant(key, &m, blocks)
	default:
		b.unknown(key, "role:"+m.Role)
	}
}

func hasThinking(bs []block) bool {
	for _, b := range bs {
		if b.Type == "thinking" || b.Type == "reasoning" {
			return true
		}
	}
	return false
}

// summary emits a condensed-context summary message (Roo isSummary).
func (b *builder) summary(key string, blocks []block) {
	var parts []string
	for _, bl := range blocks {
		if bl.Type == "text" && bl.Text != "" {
			parts = append(parts, bl.Text)
		}
	}
	b.add(core.Event{Role: core.RoleSystem, Type: core.TypeSummary, Native: "condense_summary",
		Text: strings.Join(parts, "\n\n"), Key: key})
}

// user normalizes a user message: prompts, tool results (tool_result
// blocks or "[tool for 'x'] Result:" text) and injected context, which is
// kept as one other event per message.
func (b *builder) user(key string, blocks []block) {
	var ctx []string
	for j := range blocks {
		bl := &blocks[j]
		bk := key + "/" + strconv.Itoa(j)
		switch bl.Type {
		case "text":
			if !b.userText(bk, bl.Text) {
				ctx = append(ctx, strings.TrimSpace(bl.Text))
			}
		case "tool_result":
			b.output(bk, b.takeID(bl.ToolUseID), "", resultText(bl.Content), bl.IsError)
		case "image", "document":
			b.other(bk, bl.Type, bl.Type)
		default:
			b.unknown(bk, "block:"+bl.Type)
		}
	}
	if len(ctx) > 0 {
		text := strings.Join(ctx, "\n\n")
		b.noteCwd(text)
		b.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: "injected_context",
			Text: text, Key: key + "/ctx"})
	}
	b.pending = b.pending[:0]
}

// userText handles a user text block; it returns false for injected
// context.
func (b *builder) userText(key, text string) bool {
	if name, body, ok := resultHeader(text); ok {
		b.output(key, b.takeName(name), name, body, false)
		if fb, ok := feedback(body); ok {
			b.prompt(key+"/feedback", fb)
		}
		return true
	}
	if parts := tagged(text); len(parts) > 0 {
		for n, p := range parts {
			b.prompt(key+"/p"+strconv.Itoa(n), p)
		}
		return true
	}
	if isContext(text) {
		return false
	}
	b.prompt(key, text)
	return true
}

// assistant normalizes an assistant message: text (with any XML tool calls
// and <thinking> sections of older versions), reasoning and tool calls.
func (b *builder) assistant(key string, m *apiMessage, blocks []block) {
	model := m.model()
	if b.model == "" {
		b.model = model
	}
	b.pending = b.pending[:0]
	for j := range blocks {
		bl := &blocks[j]
		bk := key + "/" + strconv.Itoa(j)
		switch bl.Type {
		case "text":
			b.assistantText(bk, bl.Text, model)
		case "thinking":
			b.reasoning(bk, bl.Thinking, model)
		case "reasoning":
			b.reasoning(bk, bl.Text, model)
		case "redacted_thinking":
			b.other(bk, bl.Type, "redacted thinking")
		case "tool_use":
			b.toolUse(bk, bl, model)
		case "image":
			b.other(bk, bl.Type, bl.Type)
		default:
			b.unknown(bk, "block:"+bl.Type)
		}
	}
}

func (b *builder) reasoning(key, text, model string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeReasoning, Text: text, Model: model, Key: key})
}

// assistantText splits a text block into prose, <thinking> sections and
// XML tool calls.
func (b *builder) assistantText(key, text, model string) {
	segs := segments(text)
	for n, s := range segs {
		sk := key
		if len(segs) > 1 {
			sk = key + "/s" + strconv.Itoa(n)
		}
		switch s.kind {
		case segThinking:
			b.reasoning(sk, s.text, model)
		case segTool:
			b.xmlTool(sk, s, model)
		default:
			if t := strings.TrimSpace(s.text); t != "" {
				b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeMessage, Text: t, Model: model, Key: sk})
			}
		}
	}
}

// resultText renders a tool_result content: a string, or the texts of its
// blocks.
func resultText(raw json.RawMessage) string {
	if jsonx.FirstByte(raw) != '[' {
		return jsonx.String(raw)
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return string(raw)
	}
	var parts []string
	for _, bl := range bs {
		if bl.Type == "text" {
			parts = append(parts, bl.Text)
		}
	}
	return strings.Join(parts, "\n")
}
