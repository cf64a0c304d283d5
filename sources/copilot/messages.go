package copilot

import (
	"cmp"
	"encoding/json"
	"path/filepath"
	"strings"

	"ctx/core"
)

// userMessage emits a prompt. The content is what the user typed;
// transformedContent (with injected <current_datetime> and <reminder>
// blocks) is not kept. Attached files are read touches.
func (p *parser) userMessage(s *session, rec *record, d *data) {
	var files []core.FileTouch
	for _, a := range d.Attachments {
		if path := cmp.Or(a.Path, a.FilePath); path != "" && a.Type != "directory" {
			files = append(files, core.FileTouch{Path: path, Op: core.OpRead})
		}
	}
	p.add(s, core.Event{Role: core.RoleUser, Type: core.TypeMessage, Text: d.Content, Files: files, Key: rec.ID})
}

// assistantMessage emits the reasoning text, the message text and the tool
// calls of one assistant message. Records repeating a message id (chunks)
// extend the same event.
func (p *parser) assistantMessage(s *session, rec *record, d *data) {
	if d.Model != "" {
		p.model = d.Model
	}
	id := cmp.Or(d.MessageID, rec.ID)
	if d.ReasoningText != "" {
		p.addReasoning(s, d.ReasoningText, id+"/reasoning")
	}
	if d.Content != "" {
		if i, ok := s.messages[id]; ok && id != "" {
			if e := &s.ps.Events[i]; !strings.HasSuffix(e.Text, d.Content) {
				e.Text += d.Content
			}
		} else {
			i := p.add(s, core.Event{Role: core.RoleAssistant, Type: core.TypeMessage, Text: d.Content,
				Model: p.model, Key: id})
			s.messages[id] = i
		}
	}
	for _, tr := range d.ToolRequests {
		p.toolCall(s, tr.ToolCallID, tr.Name, tr.Arguments, tr.MCPServerName, tr.MCPToolName)
	}
}

// addReasoning emits reasoning text once per session: builds that write
// both assistant.reasoning and a message's reasoningText repeat it.
func (p *parser) addReasoning(s *session, text, key string) {
	if strings.TrimSpace(text) == "" || s.reasoning[text] {
		return
	}
	s.reasoning[text] = true
	p.add(s, core.Event{Role: core.RoleAssistant, Type: core.TypeReasoning, Text: text, Model: p.model, Key: key})
}

// nativeID is the session's native id: the session directory's name (or a
// flat file's name) when it is a UUID, else session.start's sessionId, else
// the directory of an events.jsonl or the file name.
func nativeID(path, startID string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	dir := filepath.Base(filepath.Dir(path))
	switch {
	case base == "events" && core.IsUUID(dir):
		return dir
	case core.IsUUID(base):
		return base
	case startID != "":
		return startID
	case base == "events" && dir != "." && dir != string(filepath.Separator):
		return dir
	case base == "" || base == "." || base == string(filepath.Separator):
		return "unknown"
	}
	return base
}

// jsonString returns a JSON string's value, or the raw JSON of anything else.
func jsonString(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
