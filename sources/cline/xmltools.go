package cline

import "strings"

// segKind is the kind of a part of an assistant text block.
type segKind uint8

const (
	segText     segKind = iota
	segThinking         // <thinking>…</thinking>
	segTool             // <tool_name><param>…</param>…</tool_name>
)

// segment is a part of an assistant text block.
type segment struct {
	kind   segKind
	text   string
	name   string
	params []param
}

type param struct{ name, value string }

// xmlTools are the tools that versions before native tool calling wrote
// as XML in the assistant's text (Cline, Roo Code, Kilo Code).
var xmlTools = map[string]bool{
	"execute_command": true, "read_file": true, "write_to_file": true, "replace_in_file": true,
	"apply_diff": true, "insert_content": true, "search_and_replace": true, "search_files": true,
	"list_files": true, "list_code_definition_names": true, "browser_action": true, "use_mcp_tool": true,
	"access_mcp_resource": true, "ask_followup_question": true, "attempt_completion": true,
	"plan_mode_respond": true, "new_task": true, "switch_mode": true, "fetch_instructions": true,
	"codebase_search": true, "update_todo_list": true, "load_mcp_documentation": true, "web_fetch": true,
	"condense": true, "summarize_task": true, "new_rule": true, "report_bug": true, "edit_file": true,
	"apply_patch": true,
}

// wideParams may contain their own closing tag text (file content, diffs):
// they end at the last closing tag inside the call.
var wideParams = map[string]bool{"content": true, "diff": true, "args": true, "result": true, "code_edit": true}

// segments splits assistant text into prose, <thinking> sections and XML
// tool calls. A tag without its closing tag is prose.
func segments(text string) []segment {
	if !strings.Contains(text, "<") {
		return []segment{{kind: segText, text: text}}
	}
	var out []segment
	pos, scan := 0, 0
	for {
		i := strings.IndexByte(text[scan:], '<')
		if i < 0 {
			break
		}
		i += scan
		name, body, end, ok := element(text, i)
		if !ok {
			scan = i + 1
			continue
		}
		if pre := text[pos:i]; strings.TrimSpace(pre) != "" {
			out = append(out, segment{kind: segText, text: pre})
		}
		if name == "thinking" {
			out = append(out, segment{kind: segThinking, text: strings.TrimSpace(body)})
		} else {
			out = append(out, segment{kind: segTool, name: name, params: params(body)})
		}
		pos, scan = end, end
	}
	if rest := text[pos:]; strings.TrimSpace(rest) != "" || len(out) == 0 {
		out = append(out, segment{kind: segText, text: rest})
	}
	return out
}

// element reads a <thinking> or known tool element opening at i: its name,
// body and the offset after its closing tag.
func element(text string, i int) (name, body string, end int, ok bool) {
	gt := strings.IndexByte(text[i:], '>')
	if gt < 0 {
		return "", "", 0, false
	}
	name = text[i+1 : i+gt]
	if name != "thinking" && !xmlTools[name] {
		return "", "", 0, false
	}
	start := i + gt + 1
	closing := "</" + name + ">"
	j := strings.Index(text[start:], closing)
	if j < 0 {
		return "", "", 0, false
	}
	return name, text[start : start+j], start + j + len(closing), true
}

// params reads the <name>value</name> parameters of a tool element.
func params(body string) []param {
	var out []param
	pos := 0
	for {
		i := strings.IndexByte(body[pos:], '<')
		if i < 0 {
			return out
		}
		i += pos
		gt := strings.IndexByte(body[i:], '>')
		if gt < 0 {
			return out
		}
		name := body[i+1 : i+gt]
		start := i + gt + 1
		closing := "</" + name + ">"
		var j int
		if wideParams[name] {
			j = strings.LastIndex(body[start:], closing)
		} else {
			j = strings.Index(body[start:], closing)
		}
		if !isIdent(name) || j < 0 {
			pos = i + 1
			continue
		}
		out = append(out, param{name: name, value: strings.Trim(body[start:start+j], "\n")})
		pos = start + j + len(closing)
	}
}

// xmlValues returns the values of every <tag>…</tag> in s.
func xmlValues(s, tag string) []string {
	var out []string
	open, closing := "<"+tag+">", "</"+tag+">"
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return out
		}
		s = s[i+len(open):]
		j := strings.Index(s, closing)
		if j < 0 {
			return out
		}
		if v := strings.TrimSpace(s[:j]); v != "" {
			out = append(out, v)
		}
		s = s[j+len(closing):]
	}
}
