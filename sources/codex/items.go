package codex

import (
	"strings"

	"ctx/core"
)

// responseItem normalizes one response item (envelope payload or bare
// legacy line).
func (p *parser) responseItem(it *item, data []byte) {
	switch it.Type {
	case "message":
		p.message(it)
	case "reasoning":
		p.reasoning(it)
	case "function_call":
		p.functionCall(it)
	case "local_shell_call":
		p.localShellCall(it)
	case "custom_tool_call":
		p.customToolCall(it)
	case "function_call_output", "custom_tool_call_output":
		p.callOutput(it)
	case "web_search_call":
		p.webSearchCall(it)
	case "compaction", "compaction_summary":
		p.add(core.Event{Role: core.RoleSystem, Type: core.TypeCompaction, Native: it.Type,
			Key: p.itemKey("cmp:", it)})
	case "ghost_snapshot":
		text := "ghost snapshot"
		if it.GhostCommit != nil && it.GhostCommit.ID != "" {
			text += " " + it.GhostCommit.ID
		}
		p.other(it.Type, text)
	case "tool_search_call", "tool_search_output", "image_generation_call", "other":
		p.other(it.Type, snippet(data))
	default:
		p.unknown(it.Type, data)
	}
}

// message emits a user prompt or assistant message; developer and system
// messages and harness-injected user messages become other events.
func (p *parser) message(it *item) {
	text := it.Content.join("\n")
	var role core.Role
	switch it.Role {
	case "user":
		role = core.RoleUser
	case "assistant":
		role = core.RoleAssistant
	}
	if role == "" || (role == core.RoleUser && injected(it.Content)) {
		p.latched = true
		p.cwdFromContext(text)
		p.injected(text, p.itemKey("ctx:", it))
		return
	}
	if p.consumeTwin(core.TypeMessage, role, text) {
		return
	}
	e := core.Event{Role: role, Type: core.TypeMessage, Text: text, Key: p.itemKey("msg:", it)}
	if role == core.RoleAssistant {
		e.Model = p.model
	}
	p.add(e)
}

func (p *parser) injected(text, key string) {
	p.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: "injected_context",
		Text: text, Key: key})
}

// reasoning emits the visible reasoning summary (or raw reasoning text when
// there is no summary); encrypted-only reasoning gives an empty text.
func (p *parser) reasoning(it *item) {
	text := it.Summary.join("\n\n")
	if text == "" {
		text = it.Content.join("\n\n")
	}
	if p.consumeTwin(core.TypeReasoning, core.RoleAssistant, text) {
		return
	}
	p.add(core.Event{Role: core.RoleAssistant, Type: core.TypeReasoning, Text: text,
		Model: p.model, Key: p.itemKey("rsn:", it)})
}

// consumeTwin latches response-item mode and reports whether the content was
// already emitted from its event-message twin.
func (p *parser) consumeTwin(typ core.EventType, role core.Role, text string) bool {
	p.latched = true
	for i, t := range p.pending {
		if t.typ == typ && t.role == role && t.text == text {
			p.pending = append(p.pending[:i], p.pending[i+1:]...)
			return true
		}
	}
	return false
}

// uiContent handles an event-message prompt, answer or reasoning: a twin
// once response items carry content, else the content itself.
func (p *parser) uiContent(typ core.EventType, role core.Role, text, kind string) {
	if p.latched {
		return
	}
	if kind == "user_instructions" || kind == "environment_context" {
		p.injected(text, p.key("ctx:"))
		return
	}
	e := core.Event{Role: role, Type: typ, Text: text, Key: p.key("ui:")}
	if role == core.RoleAssistant {
		e.Model = p.model
	}
	p.add(e)
	if len(p.pending) == maxPending {
		p.pending = append(p.pending[:0], p.pending[1:]...)
	}
	p.pending = append(p.pending, twin{typ: typ, role: role, text: text})
}

// maxPending bounds the event-message copies waiting for a twin; twins
// follow their copy closely.
const maxPending = 16

// contextMarkers open the user-role messages that Codex writes itself
// (codex-rs instruction_markers.rs and contextual_user_message.rs).
var contextMarkers = []string{
	"<environment_context>",
	"<user_instructions>",
	"# AGENTS.md instructions for ",
	"<skill",
	"<user_shell_command>",
	"<turn_aborted>",
	"<subagent_notification>",
	"<collaboration_mode>",
}

// injected reports whether every text block of a user message is context
// written by the harness.
func injected(ps parts) bool {
	n := 0
	for _, x := range ps {
		if x.Type == "input_image" {
			continue
		}
		t := strings.TrimLeft(x.Text, " \t\r\n")
		if !hasMarker(t) {
			return false
		}
		n++
	}
	return n > 0
}

func hasMarker(t string) bool {
	for _, m := range contextMarkers {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return false
}

// cwdFromContext takes the workspace from <cwd>…</cwd> of an environment
// context when no meta or turn context named one (legacy rollouts).
func (p *parser) cwdFromContext(text string) {
	if p.ps.Session.Workspace != "" {
		return
	}
	_, rest, ok := strings.Cut(text, "<cwd>")
	if !ok {
		return
	}
	if cwd, _, ok := strings.Cut(rest, "</cwd>"); ok {
		p.ps.Session.Workspace = strings.TrimSpace(cwd)
	}
}
