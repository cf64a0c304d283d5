package export

import (
	"fmt"
	"strings"
	"unicode"

	"ctx/core"
)

// clean drops terminal control characters (escape sequences become their
// printable rest) but keeps newlines and tabs.
func clean(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !isControl(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == 0x2028 || r == 0x2029)
}

// clip keeps at most n bytes of s (on a rune boundary) and says how many
// bytes and lines were left out.
func clip(s string, n int) (string, string) {
	if len(s) <= n {
		return s, ""
	}
	cut := core.RuneCut(s, n)
	rest := s[cut:]
	return s[:cut], fmt.Sprintf("… clipped: %d more bytes, %d more lines", len(rest), strings.Count(rest, "\n"))
}

// diffLines renders a file touch as diff lines ("-", "+", " " prefixed),
// or "" when it carries no change text.
func diffLines(f *core.FileTouch) string {
	switch {
	case f.Patch != "":
		return f.Patch
	case f.OldText != "" || f.NewText != "":
		var b strings.Builder
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", f.Path, f.Path)
		for _, l := range splitLines(f.OldText) {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range splitLines(f.NewText) {
			b.WriteString("+" + l + "\n")
		}
		return b.String()
	}
	return ""
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// label names an event for a reader.
func label(e *core.Event) string {
	switch e.Type {
	case core.TypeMessage:
		if e.Role == core.RoleUser {
			return "User"
		}
		return "Assistant"
	case core.TypeReasoning:
		return "Reasoning"
	case core.TypeSummary:
		return "Summary"
	case core.TypeCompaction:
		return "Compaction"
	case core.TypeToolCall:
		return "Tool call " + e.Tool
	case core.TypeCommandStart:
		return "Command"
	case core.TypeToolOutput:
		return "Output of " + e.Tool
	case core.TypeCommandOutput:
		return "Command output"
	case core.TypeCommandFinish:
		return "Command finished"
	}
	return "Other " + e.Native
}

// isOutput reports whether the event is the result of a call.
func isOutput(e *core.Event) bool { return e.Type.Class() == core.ClassOutput }

// body is what a document shows of an event: its text, else its command.
func body(e *core.Event) string {
	t := e.Text
	if e.Type == core.TypeCommandStart && e.Command != "" {
		t = e.Command
	}
	if t == "" {
		t = e.Command
	}
	return clean(t)
}

// stamp formats an event time ("" when unknown).
func stamp(e *core.Event) string {
	if e.Timestamp.IsZero() {
		return ""
	}
	return e.Timestamp.UTC().Format("2006-01-02 15:04:05Z")
}
