package cline

import "strings"

// maxHeader bounds how far a "[tool for '…'] Result:" header may reach
// (commands can span lines).
const maxHeader = 8 << 10

// resultHeader splits a tool result written as user text,
// "[name for 'arg'] Result:\nbody" or "[name] Result:\nbody".
func resultHeader(text string) (name, body string, ok bool) {
	if !strings.HasPrefix(text, "[") {
		return "", "", false
	}
	head := text
	if len(head) > maxHeader {
		head = head[:maxHeader]
	}
	end := strings.Index(head, "] Result:")
	if end < 0 {
		return "", "", false
	}
	inner := text[1:end]
	name, _, _ = strings.Cut(inner, " ")
	if !isIdent(name) {
		return "", "", false
	}
	body = strings.TrimPrefix(text[end+len("] Result:"):], "\n")
	return name, body, true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// promptTags wrap what the user typed: the task, feedback on a result, an
// answer to a question, and a message sent when resuming a task.
var promptTags = []string{"task", "feedback", "answer", "user_message"}

// tagged returns the texts inside prompt tags, in order of appearance.
func tagged(text string) []string {
	var out []string
	pos := 0
	for {
		at, tag := -1, ""
		for _, t := range promptTags {
			if i := strings.Index(text[pos:], "<"+t+">"); i >= 0 && (at < 0 || i < at) {
				at, tag = i, t
			}
		}
		if at < 0 {
			return out
		}
		start := pos + at + len(tag) + 2
		end := strings.Index(text[start:], "</"+tag+">")
		if end < 0 {
			return out
		}
		if s := strings.TrimSpace(text[start : start+end]); s != "" {
			out = append(out, s)
		}
		pos = start + end + len(tag) + 3
	}
}

// feedbackMarker introduces user feedback inside a tool result ("The user
// denied this operation and provided the following feedback:").
const feedbackMarker = "the following feedback:\n<feedback>"

// feedback returns the user's feedback quoted in a tool result.
func feedback(body string) (string, bool) {
	i := strings.Index(body, feedbackMarker)
	if i < 0 {
		return "", false
	}
	rest := body[i+len(feedbackMarker):]
	end := strings.Index(rest, "</feedback>")
	if end < 0 {
		return "", false
	}
	fb := strings.TrimSpace(rest[:end])
	return fb, fb != ""
}

// contextPrefixes open the user-role text the extension writes itself:
// environment details, attached file contents, resumption notes, todo
// reminders, error notes.
var contextPrefixes = []string{"<", "[", "(", "#", "Files attached by the user"}

// isContext reports whether untagged user text was written by the
// extension rather than typed by the user.
func isContext(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return true
	}
	for _, p := range contextPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// cwdMarkers precede the working directory in <environment_details>
// (Cline; Roo and Kilo Code say "Workspace").
var cwdMarkers = []string{"# Current Working Directory (", "# Current Workspace Directory ("}

// noteCwd takes the workspace from the first environment details.
func (b *builder) noteCwd(text string) {
	if b.cwd == "" {
		b.cwd = cwdFrom(text)
	}
}

// cwdFrom reads "# Current Working Directory (<dir>) Files" ending a line;
// occurrences inside quoted file content (escaped newlines) are skipped.
func cwdFrom(text string) string {
	for _, m := range cwdMarkers {
		rest := text
		for {
			i := strings.Index(rest, m)
			if i < 0 {
				break
			}
			rest = rest[i+len(m):]
			line, _, _ := strings.Cut(rest, "\n")
			line = strings.TrimRight(line, " \r")
			if dir, ok := strings.CutSuffix(line, ") Files"); ok && strings.TrimSpace(dir) != "" {
				return strings.TrimSpace(dir)
			}
		}
	}
	return ""
}
