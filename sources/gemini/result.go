package gemini

import (
	"encoding/json"
	"strconv"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// result is what ctx reads of a tool call's result parts.
type result struct {
	text    string
	isErr   bool // a functionResponse carried an error
	present bool
}

// readResult renders a tool result (a PartListUnion, normally one
// functionResponse part): response outputs and errors, text parts and media
// markers, one per line.
func readResult(raw json.RawMessage) result {
	if c := jsonx.FirstByte(raw); c == 0 || c == 'n' {
		return result{}
	}
	r := result{present: true}
	var pieces []string
	for _, p := range decodeParts(raw) {
		switch {
		case p.FunctionResponse != nil:
			text, isErr := responseText(p.FunctionResponse.Response)
			r.isErr = r.isErr || isErr
			pieces = append(pieces, text)
		default:
			text, thoughts := partsText([]part{p})
			pieces = append(pieces, text, thoughts)
		}
	}
	r.text = strings.Join(core.NonEmpty(pieces...), "\n")
	return r
}

// responseText renders a functionResponse.response: {"output": …} or
// {"error": …}, else the response as JSON ("" for an empty object).
func responseText(raw json.RawMessage) (string, bool) {
	if jsonx.FirstByte(raw) != '{' {
		return jsonString(raw), false
	}
	var r struct {
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(raw, &r)
	switch {
	case r.Error != nil && jsonString(r.Error) != "":
		return jsonString(r.Error), true
	case r.Output != nil:
		return jsonString(r.Output), false
	}
	if s := jsonString(raw); s != "{}" {
		return s, false
	}
	return "", false
}

// Lines that close a run_shell_command result, after the output.
var shellTrailers = []string{"Exit Code:", "Signal:", "Error:", "Background PIDs:", "Process Group PGID:"}

// shellExit reads the exit code of a run_shell_command result. Gemini CLI
// writes "Exit Code: N" after the output (always in 2025 versions, only
// when non-zero since). A result that begins "Output: " and ends without
// an exit code, signal or error line exited 0. A command moved to the
// background has no exit code and reports background.
func shellExit(text string, isErr bool) (exit *int, background bool) {
	if isErr {
		return nil, false
	}
	text = strings.TrimSpace(text)
	text = strings.TrimSpace(strings.TrimPrefix(text, "<untrusted_context>"))
	text = strings.TrimSpace(strings.TrimSuffix(text, "</untrusted_context>"))
	if strings.HasPrefix(text, "Command moved to background") || strings.HasPrefix(text, "Command is running in background") {
		return nil, true
	}
	abnormal := false
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i > 0; i-- {
		line := strings.TrimSpace(lines[i])
		key, value, ok := trailer(line)
		if !ok {
			break
		}
		switch {
		case key == "Exit Code:":
			if n, err := strconv.Atoi(value); err == nil {
				return &n, false
			}
			return nil, false
		case value != "(none)" && (key == "Signal:" || key == "Error:"):
			abnormal = true
		}
	}
	if !abnormal && strings.HasPrefix(text, "Output: ") {
		zero := 0
		return &zero, false
	}
	return nil, false
}

// trailer splits a trailer line into its key and value.
func trailer(line string) (key, value string, ok bool) {
	for _, k := range shellTrailers {
		if v, found := strings.CutPrefix(line, k); found {
			return k, strings.TrimSpace(v), true
		}
	}
	return "", "", false
}

// argsText renders tool arguments as "key: value" lines in their order,
// strings unquoted and other values as compact JSON; the tool name when
// there are none.
func argsText(name string, raw json.RawMessage) string {
	if jsonx.FirstByte(raw) != '{' {
		if s := jsonString(raw); s != "" {
			return s
		}
		return name
	}
	s, ok := jsonx.ObjectLines(raw, jsonString)
	switch {
	case !ok:
		return jsonString(raw)
	case s == "":
		return name
	}
	return s
}
