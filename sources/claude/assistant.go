package claude

import (
	"strings"
	"time"

	"ctx/core"
)

// callKind says how a tool's result is normalized.
type callKind int

const (
	kindTool       callKind = iota
	kindBash                // Bash: command start, output and finish
	kindBashOutput          // BashOutput: output of a background shell
	kindEdit                // Edit, MultiEdit, Write, NotebookEdit
)

// call is what a tool_use leaves for its tool_result.
type call struct {
	at      int // ordinal of the call's event
	name    string
	kind    callKind
	command string
	path    string
	mcp     *core.Invocation
}

// interpreted lists the tools whose input is decoded, and their kind.
var interpreted = map[string]callKind{
	"Bash":         kindBash,
	"BashOutput":   kindBashOutput,
	"Edit":         kindEdit,
	"MultiEdit":    kindEdit,
	"Write":        kindEdit,
	"NotebookEdit": kindEdit,
	"Read":         kindTool,
}

// assistant turns the blocks of an assistant record into events. Blocks that
// share a message id merge into one message and one reasoning event.
func (p *parser) assistant(rec *record, ts time.Time, line int) {
	m := rec.Message
	if m == nil || !m.Content.Present {
		p.problem(core.ProblemInvalidRecord, line)
		return
	}
	id := m.ID
	if id == "" {
		id = rec.UUID
	}
	defer p.noteUsage(id, m.Usage, p.next())
	if !m.Content.IsList {
		p.appendText(id, core.TypeMessage, core.RoleAssistant, m.Content.Text, ts, m.Model)
		return
	}
	for i := range m.Content.Blocks {
		b := &m.Content.Blocks[i]
		switch b.Type {
		case "text":
			p.appendText(id, core.TypeMessage, core.RoleAssistant, b.Text, ts, m.Model)
		case "thinking":
			p.appendText(suffix(id, "/thinking"), core.TypeReasoning, core.RoleAssistant, b.Thinking, ts, m.Model)
		case "redacted_thinking", "":
			// Encrypted or empty: nothing to keep.
		case "tool_use", "server_tool_use":
			p.toolUse(b, ts, m.Model)
		default:
			if strings.HasSuffix(b.Type, "_tool_result") {
				p.toolResult(rec, b, ts)
				continue
			}
			kind := core.Clip(b.Type, 64)
			p.add(core.Event{Timestamp: ts, Role: core.RoleAssistant, Type: core.TypeOther,
				Native: "assistant/" + kind, Text: core.Clip(b.placeholder(), maxOtherText),
				Model: m.Model, Key: suffix(id, "/"+kind)})
		}
	}
}

// noteUsage keeps the latest usage of message id, whose events of this
// record start at index from.
func (p *parser) noteUsage(id string, t *core.Tokens, from int) {
	if t == nil || id == "" {
		return
	}
	if p.usage == nil {
		p.usage = map[string]*usage{}
	}
	u, ok := p.usage[id]
	if !ok {
		if p.st != nil && p.st.closed("u", id) {
			return
		}
		u = &usage{at: -1}
		p.usage[id] = u
	}
	u.tokens, u.touched = *t, p.next()
	if u.at < 0 && p.next() > from {
		u.at = from
	}
}

// attachUsage gives each message's usage to its first event.
func (p *parser) attachUsage() {
	for _, u := range p.usage {
		if u.at >= 0 && u.at < p.next() {
			t := u.tokens
			p.at(u.at).Tokens = &t
		}
	}
}

// appendText adds text to the event with the key, creating it on first use.
func (p *parser) appendText(key string, t core.EventType, role core.Role, text string, ts time.Time, model string) {
	if text == "" {
		return
	}
	if i, ok := p.merge[key]; ok && key != "" {
		p.at(i).Text += "\n\n" + text
		if p.st != nil {
			p.st.bytes += len(text) + 2
		}
		return
	}
	if p.st != nil && key != "" && p.st.lateMerge(key, p.uuid) {
		return
	}
	i := p.add(core.Event{Timestamp: ts, Role: role, Type: t, Text: text, Model: model, Key: key})
	if key != "" {
		p.merge[key] = i
	}
}

// toolUse adds a tool_call event, or a command_start for Bash.
func (p *parser) toolUse(b *block, ts time.Time, model string) {
	c := &call{at: p.next(), name: b.Name, kind: kindTool}
	ev := core.Event{Timestamp: ts, Role: core.RoleAssistant, Type: core.TypeToolCall,
		Tool: b.Name, CallID: b.ID, Model: model, Key: b.ID}
	if kind, ok := interpreted[b.Name]; ok {
		var in toolInput
		decodeObject(b.Input, &in)
		c.kind, c.command = kind, in.Command
		ev.Files = touches(b.Name, &in)
		if len(ev.Files) > 0 {
			c.path = ev.Files[0].Path
		}
		if kind == kindBash {
			ev.Type, ev.Command, ev.Text = core.TypeCommandStart, in.Command, in.Command
		}
	}
	if ev.Type == core.TypeToolCall {
		ev.Text = renderInput(b.Input)
	}
	if inv, ok := mcpInvocation(b.Name); ok {
		inv.ProviderCallID = b.ID
		c.mcp = &inv
		ev.Activity = &core.Activity{Invocation: inv}
		ev.Activity.Invocation.Result = "pending"
	}
	if b.ID != "" {
		p.calls[b.ID] = c
	}
	p.add(ev)
}

// touches returns the files a call reads or edits, with the edit text.
func touches(name string, in *toolInput) []core.FileTouch {
	switch name {
	case "Read":
		return touch(in.FilePath, core.FileTouch{Path: in.FilePath, Op: "read"})
	case "Edit":
		return touch(in.FilePath, core.FileTouch{Path: in.FilePath, Op: "edit", OldText: in.OldString, NewText: in.NewString})
	case "Write":
		return touch(in.FilePath, core.FileTouch{Path: in.FilePath, Op: "write", NewText: in.Content})
	case "NotebookEdit":
		return touch(in.NotebookPath, core.FileTouch{Path: in.NotebookPath, Op: "edit", NewText: in.NewSource})
	case "MultiEdit":
		if in.FilePath == "" {
			return nil
		}
		out := make([]core.FileTouch, 0, len(in.Edits))
		for _, e := range in.Edits {
			out = append(out, core.FileTouch{Path: in.FilePath, Op: "edit", OldText: e.OldString, NewText: e.NewString})
		}
		return out
	}
	return nil
}

func touch(path string, t core.FileTouch) []core.FileTouch {
	if path == "" {
		return nil
	}
	return []core.FileTouch{t}
}

// mcpInvocation splits mcp__<server>__<tool> on the first "__" after the
// prefix; arguments are captured and the result is filled in by the output.
func mcpInvocation(name string) (core.Invocation, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return core.Invocation{}, false
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return core.Invocation{}, false
	}
	return core.Invocation{Protocol: "mcp", Server: server, Tool: tool,
		Arguments: "captured", Result: "captured"}, true
}

// suffix appends s to a non-empty key; an empty key stays empty so that the
// event falls back to its ordinal.
func suffix(key, s string) string {
	if key == "" {
		return ""
	}
	return key + s
}

// renderInput renders a tool input object as "key: value" lines in input
// order, strings unquoted and other values as compact JSON.
func renderInput(raw []byte) string {
	fields, ok := objectFields(raw)
	if !ok {
		return string(raw)
	}
	var sb strings.Builder
	for i, f := range fields {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(f.key)
		sb.WriteString(": ")
		if s, isString := stringValue(f.value); isString {
			sb.WriteString(s)
		} else {
			sb.Write(compactJSON(f.value))
		}
	}
	return sb.String()
}
