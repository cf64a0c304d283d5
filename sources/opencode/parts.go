package opencode

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ctx/core"
)

// convertPart turns one part of message m into an item. known is false for
// a part type this parser does not know; it is kept as an other event.
func convertPart(id string, p *partData, m *messageAcc) (it item, known bool) {
	it = item{partID: id, ts: firstTime(p.Time.Start.Time(), p.Time.Created.Time())}
	other := func(text string) {
		it.events = append(it.events, core.Event{Role: m.role, Type: core.TypeOther, Native: p.Type,
			Text: text, Timestamp: it.ts, Key: id})
	}
	switch p.Type {
	case "text":
		if p.Synthetic {
			other(p.Text)
			it.events[0].Native = "synthetic_text"
			break
		}
		it.text = p.Text
	case "reasoning":
		if strings.TrimSpace(p.Text) != "" {
			it.events = append(it.events, core.Event{Role: core.RoleAssistant, Type: core.TypeReasoning,
				Text: strings.TrimSpace(p.Text), Timestamp: it.ts, Model: m.data.ModelID, Key: id})
		}
	case "tool":
		it.events = toolEvents(id, p, m)
	case "compaction":
		text := "compaction"
		if p.Auto {
			text = "compaction (automatic)"
		}
		it.events = append(it.events, core.Event{Role: core.RoleSystem, Type: core.TypeCompaction,
			Text: text, Timestamp: it.ts, Key: id})
	case "step-start", "step-finish", "snapshot", "patch", "agent", "subtask", "retry", "file":
		other(bookkeepingText(p))
		switch p.Type {
		case "retry":
			it.events[0].IsError = true
		case "file":
			it.events[0].Files = attachment(p)
		}
	default:
		other(p.Type)
		if p.Type == "" {
			it.events[0].Native = "part"
		}
		return it, false
	}
	return it, true
}

func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// bookkeepingText is the short text of a bookkeeping part.
func bookkeepingText(p *partData) string {
	switch p.Type {
	case "step-finish":
		text := "step finished"
		if p.Reason != "" {
			text += ": " + p.Reason
		}
		if p.Tokens.Total > 0 {
			text += fmt.Sprintf(" (%d tokens)", int64(p.Tokens.Total))
		}
		return text
	case "patch":
		return "files changed: " + strings.Join(p.Files, ", ")
	case "agent":
		return "agent " + p.Name
	case "subtask":
		return strings.TrimSpace(p.Agent + ": " + p.Description + "\n" + p.Prompt)
	case "retry":
		text := "retry " + strconv.Itoa(int(p.Attempt))
		if p.Error != nil {
			text += ": " + strings.TrimSpace(p.Error.Name+" "+p.Error.Data.Message)
		}
		return text
	case "file":
		if p.Filename != "" {
			return p.Filename
		}
		if p.Source != nil && p.Source.Path != "" {
			return p.Source.Path
		}
		if !strings.HasPrefix(p.URL, "data:") {
			return p.URL
		}
		return p.Mime
	}
	return strings.ReplaceAll(p.Type, "-", " ")
}

// attachment is the file a file part names, when it is a local file.
func attachment(p *partData) []core.FileTouch {
	path := ""
	switch {
	case p.Source != nil && strings.HasPrefix(p.Source.Path, "/"):
		path = p.Source.Path
	case strings.HasPrefix(p.URL, "file://"):
		path = strings.TrimPrefix(p.URL, "file://")
	}
	if path == "" {
		return nil
	}
	return []core.FileTouch{{Path: path, Op: core.OpRead}}
}
