package aider

import (
	"strconv"
	"strings"

	"ctx/core"
)

// banner reads the model and edit format from startup lines such as
// "Main model: X with diff edit format, infinite output", "Model: X with
// whole edit format" and "Editor model: X with editor-diff edit format".
func (b *builder) banner(lines []string) {
	for _, l := range lines {
		var rest string
		var main, ok bool
		if rest, ok = strings.CutPrefix(l, "Main model: "); ok {
			main = true
		} else if rest, ok = strings.CutPrefix(l, "Model: "); ok {
			main = true
		} else if rest, ok = strings.CutPrefix(l, "Editor model: "); !ok {
			continue
		}
		model, format, _ := strings.Cut(rest, " with ")
		format, _, _ = strings.Cut(format, " edit format")
		if main {
			b.model, b.formats = strings.TrimSpace(model), nil
			if b.ps.Session.Model == "" {
				b.ps.Session.Model = b.model
			}
		}
		if f := strings.TrimSpace(format); f != "" {
			b.formats = append(b.formats, f)
		}
	}
}

// hasFormat reports whether the session's main or editor edit format
// contains name ("udiff" also matches "udiff-simple").
func (b *builder) hasFormat(name string) bool {
	for _, f := range b.formats {
		if strings.TrimPrefix(f, "editor-") == name || strings.HasPrefix(strings.TrimPrefix(f, "editor-"), name+"-") {
			return true
		}
	}
	return false
}

// assistant handles a reply: its reasoning, its text, and one tool call per
// file edit it contains.
func (b *builder) assistant(blk *block, key string) {
	b.talked, b.command = true, ""
	text := strings.TrimSpace(strings.Join(blk.lines, "\n"))
	reasoning, rest := splitReasoning(text)
	if reasoning != "" {
		b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeReasoning, Text: reasoning,
			Model: b.model, Key: key + "reasoning"})
	}
	if rest != "" {
		b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeMessage, Text: rest,
			Model: b.model, Key: key + "msg"})
	}
	lines := strings.Split(rest, "\n")
	edits := searchReplace(lines)
	if b.hasFormat("udiff") {
		edits = append(edits, unifiedDiffs(lines)...)
	}
	if b.hasFormat("whole") {
		edits = append(edits, wholeFiles(lines)...)
	}
	for i, e := range edits {
		b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: e.tool,
			Text: e.tool + " " + e.touch.Path, Files: []core.FileTouch{e.touch},
			Model: b.model, Key: key + "edit" + strconv.Itoa(i)})
	}
}

// reasoningTags are the tags aider and reasoning models wrap thinking in;
// aider's own is "<thinking-content-<hex>>".
var reasoningTags = []string{"thinking-content-", "think", "thinking", "reasoning"}

// splitReasoning separates a leading reasoning section from the reply. An
// unclosed section is all reasoning.
func splitReasoning(text string) (reasoning, rest string) {
	if !strings.HasPrefix(text, "<") {
		return "", text
	}
	end := strings.IndexByte(text, '>')
	if end < 0 {
		return "", text
	}
	tag := text[1:end]
	known := false
	for _, t := range reasoningTags {
		if tag == t || (strings.HasSuffix(t, "-") && strings.HasPrefix(tag, t)) {
			known = true
		}
	}
	if !known {
		return "", text
	}
	body := text[end+1:]
	inner, after, found := strings.Cut(body, "</"+tag+">")
	if !found {
		return strings.TrimSpace(body), ""
	}
	return strings.TrimSpace(inner), strings.TrimSpace(after)
}
