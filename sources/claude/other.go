package claude

import (
	"fmt"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/jsonl"
)

// bookkeepingTypes lists the known record types kept as "other" events.
var bookkeepingTypes = map[string]bool{
	"summary":               true,
	"ai-title":              true,
	"custom-title":          true,
	"agent-name":            true,
	"file-history-snapshot": true,
	"permission-mode":       true,
	"last-prompt":           true,
	"queue-operation":       true,
	"progress":              true,
	"attachment":            true,
}

// system adds a compaction event for a compact boundary and an "other"
// event for every other system record.
func (p *parser) system(rec *record, ts time.Time) {
	text := str(rec.Content)
	if rec.Subtype == "compact_boundary" {
		p.add(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeCompaction,
			Native: "system/compact_boundary", Text: compactText(text, rec.CompactMetadata), Key: rec.UUID})
		return
	}
	native := "system"
	if rec.Subtype != "" {
		native += "/" + core.Clip(rec.Subtype, 64)
	}
	if text == "" {
		text = native
	}
	p.add(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeOther,
		Native: native, Text: core.Clip(text, maxSystemText), Key: rec.UUID})
}

// compactText renders a compact boundary, e.g.
// "Conversation compacted (auto, 171100 → 6611 tokens)".
func compactText(content string, m *compactMeta) string {
	if content == "" {
		content = "Conversation compacted"
	}
	if m == nil {
		return content
	}
	var parts []string
	if m.Trigger != "" {
		parts = append(parts, m.Trigger)
	}
	switch {
	case m.PreTokens > 0 && m.PostTokens > 0:
		parts = append(parts, fmt.Sprintf("%d → %d tokens", m.PreTokens, m.PostTokens))
	case m.PreTokens > 0:
		parts = append(parts, fmt.Sprintf("%d tokens before", m.PreTokens))
	}
	if len(parts) == 0 {
		return content
	}
	return content + " (" + strings.Join(parts, ", ") + ")"
}

// bookkeeping adds an "other" event with a short rendering of the record.
func (p *parser) bookkeeping(rec *record, ts time.Time) {
	p.add(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeOther,
		Native: rec.Type, Text: core.Clip(bookText(rec), maxOtherText), Key: bookKey(rec)})
}

// bookKey is the record uuid, or for records without one the type plus the
// field that identifies it (repeats are numbered by Finalize).
func bookKey(rec *record) string {
	switch {
	case rec.UUID != "":
		return rec.UUID
	case rec.Type == "summary" && rec.LeafUUID != "":
		return "summary/" + rec.LeafUUID
	case rec.Type == "file-history-snapshot" && rec.MessageID != "":
		return "file-history-snapshot/" + rec.MessageID
	}
	return rec.Type
}

func bookText(rec *record) string {
	switch rec.Type {
	case "summary":
		return rec.Summary
	case "ai-title":
		return rec.AITitle
	case "custom-title":
		return rec.CustomTitle
	case "agent-name":
		return rec.AgentName
	case "permission-mode":
		return "permission mode " + rec.PermissionMode
	case "last-prompt":
		return "last prompt"
	case "file-history-snapshot":
		if rec.IsSnapshotUpdate {
			return "file history snapshot update"
		}
		return "file history snapshot"
	case "queue-operation":
		return join(": ", "queue "+rec.Operation, core.Clip(str(rec.Content), maxInlineValue))
	case "progress":
		if rec.Data == nil {
			return "progress"
		}
		return join(" ", "progress", rec.Data.Type, rec.Data.HookName)
	case "attachment":
		return attachmentText(rec.Attachment)
	}
	return rec.Type
}

// attachmentText names the attachment kind, its hook or file, and a short
// string content when it has one.
func attachmentText(a *attachment) string {
	if a == nil {
		return "attachment"
	}
	name := a.DisplayPath
	if name == "" {
		name = a.Filename
	}
	head := join(" ", "attachment", core.Clip(a.Type, 64), a.HookName, name)
	return join(": ", head, core.Clip(a.Content, maxInlineValue))
}

// unknown keeps a record of an unknown type as an "other" event holding the
// start of the line, and counts it as a problem.
func (p *parser) unknown(rec *record, ts time.Time, l jsonl.Line) {
	key := rec.UUID
	if key == "" {
		key = rec.Type
	}
	p.add(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeOther,
		Native: core.Clip(rec.Type, 64), Text: core.Clip(string(l.Data), maxOtherText), Key: key})
	p.problem(core.ProblemUnknownRecord, l.No)
}

// join joins the non-empty parts with sep.
func join(sep string, parts ...string) string {
	var out []string
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}
