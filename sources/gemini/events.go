package gemini

import (
	"strconv"
	"strings"
	"time"

	"ctx/core"
)

// Prefixes of user-role text the harness wrote rather than the user.
var injectedPrefixes = []string{"<session_context>", "<hook_context>"}

const (
	snapshotPrefix = "<state_snapshot>"     // a compression summary
	responsePrefix = "[Function Response: " // a tool result flattened to text
)

// buildEvents turns the final message order into events.
func (b *builder) buildEvents() {
	b.calls, b.outputs = map[string]bool{}, map[string]bool{}
	for _, e := range b.entries {
		if e.marker != nil {
			b.add(*e.marker)
			continue
		}
		b.message(e.msg, e.line)
	}
}

func (b *builder) add(e core.Event) {
	b.ps.Events = append(b.ps.Events, e)
}

func (b *builder) message(m *message, line int) {
	ts := parseTime(m.Timestamp)
	switch m.Type {
	case "user":
		b.user(m, ts)
	case "gemini":
		b.gemini(m, ts)
	case "info", "warning", "error":
		text, _ := partsText(decodeParts(m.Content))
		b.add(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeOther, Native: m.Type,
			Text: core.Clip(text, maxNotice), IsError: m.Type == "error", Key: m.ID})
	default:
		b.problemAt(core.ProblemUnknownRecord, line)
		text, _ := partsText(decodeParts(m.Content))
		b.add(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeOther,
			Native: "message:" + core.Clip(m.Type, 64), Text: core.Clip(text, maxOther), Key: m.ID})
	}
}

// user adds a user message: the prompt as the user saw it (displayContent
// when set), or harness text classified by its prefix, and any function
// call or response parts.
func (b *builder) user(m *message, ts time.Time) {
	parts := decodeParts(m.Content)
	text, _ := partsText(parts)
	if shown, _ := partsText(decodeParts(m.DisplayContent)); strings.TrimSpace(shown) != "" {
		text = shown
	}
	if trimmed := strings.TrimSpace(text); trimmed != "" {
		b.add(userEvent(m.ID, ts, text, trimmed))
	}
	b.callParts(m, parts, ts)
}

func userEvent(key string, ts time.Time, text, trimmed string) core.Event {
	e := core.Event{Timestamp: ts, Role: core.RoleUser, Type: core.TypeMessage, Text: text, Key: key}
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(trimmed, p) {
			e.Role, e.Type, e.Native = core.RoleSystem, core.TypeOther, "injected_context"
			return e
		}
	}
	switch {
	case strings.HasPrefix(trimmed, snapshotPrefix):
		e.Role, e.Type, e.Native = core.RoleSystem, core.TypeSummary, "state_snapshot"
	case strings.HasPrefix(trimmed, responsePrefix):
		name, rest, ok := strings.Cut(trimmed[len(responsePrefix):], "]")
		if ok {
			e.Role, e.Type, e.Tool, e.Text = core.RoleTool, core.TypeToolOutput, name, strings.TrimSpace(rest)
		}
	}
	return e
}

// gemini adds an assistant message: its thoughts as one reasoning event,
// its text, then its tool calls with their results.
func (b *builder) gemini(m *message, ts time.Time) {
	parts := decodeParts(m.Content)
	text, partThoughts := partsText(parts)
	if r, rts := thoughtsText(m.Thoughts, partThoughts); r != "" {
		if rts.IsZero() {
			rts = ts
		}
		b.add(core.Event{Timestamp: rts, Role: core.RoleAssistant, Type: core.TypeReasoning, Text: r,
			Model: m.Model, Key: m.ID + "/thoughts"})
	}
	if strings.TrimSpace(text) != "" {
		b.add(core.Event{Timestamp: ts, Role: core.RoleAssistant, Type: core.TypeMessage, Text: text,
			Model: m.Model, Key: m.ID})
	}
	if b.ps.Session.Model == "" {
		b.ps.Session.Model = m.Model
	}
	for i := range m.ToolCalls {
		b.toolCall(m, i, ts)
	}
	b.callParts(m, parts, ts)
}

// thoughtsText renders thought summaries as "subject\ndescription" blocks
// and returns the time of the first one.
func thoughtsText(ts []thought, extra string) (string, time.Time) {
	var sb strings.Builder
	var first time.Time
	for _, t := range ts {
		block := strings.TrimSpace(strings.Join(core.NonEmpty(t.Subject, t.Description), "\n"))
		if block == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(block)
		if first.IsZero() {
			first = parseTime(t.Timestamp)
		}
	}
	if extra = strings.TrimSpace(extra); extra != "" {
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(extra)
	}
	return sb.String(), first
}

// partsText concatenates the text parts (as Gemini CLI does) and marks
// media parts; thought parts are returned apart.
func partsText(parts []part) (text, thoughts string) {
	var sb, th strings.Builder
	for _, p := range parts {
		switch {
		case p.Text != nil && p.Thought:
			th.WriteString(*p.Text)
		case p.Text != nil:
			sb.WriteString(*p.Text)
		case p.InlineData != nil:
			sb.WriteString("[inline data " + core.Clip(p.InlineData.MimeType, 128) + "]")
		case p.FileData != nil:
			sb.WriteString("[file data " + core.Clip(p.FileData.FileURI, 1024) + "]")
		}
	}
	return sb.String(), th.String()
}

// callParts adds the function calls and responses carried as content parts
// (history synced from the model's view) that no tool call record already
// gave.
func (b *builder) callParts(m *message, parts []part, ts time.Time) {
	for i, p := range parts {
		if fc := p.FunctionCall; fc != nil && (fc.ID == "" || !b.calls[fc.ID]) {
			key := partKey(m.ID, fc.ID, "/fc", i, "")
			b.add(core.Event{Timestamp: ts, Role: core.RoleAssistant, Type: core.TypeToolCall,
				Tool: fc.Name, CallID: fc.ID, Text: argsText(fc.Name, fc.Args), Model: m.Model, Key: key})
			b.calls[fc.ID] = true
		}
		if fr := p.FunctionResponse; fr != nil && (fr.ID == "" || !b.outputs[fr.ID]) {
			text, isErr := responseText(fr.Response)
			key := partKey(m.ID, fr.ID, "/fr", i, "/output")
			b.add(core.Event{Timestamp: ts, Role: core.RoleTool, Type: core.TypeToolOutput,
				Tool: fr.Name, CallID: fr.ID, Text: text, IsError: isErr, Key: key})
			b.outputs[fr.ID] = true
		}
	}
}

// partKey keys a call or response part by its call id, else by its
// message and place.
func partKey(msgID, callID, kind string, i int, suffix string) string {
	if callID != "" {
		return "call:" + callID + suffix
	}
	return msgID + kind + strconv.Itoa(i)
}
