package cline

import (
	"encoding/json"
	"strings"

	"ctx/core"
	"ctx/sources/applypatch"
	"ctx/sources/jsonx"
)

// toolArgs are the tool inputs the parser reads, decoded from a tool_use
// input object or from XML tool parameters.
type toolArgs struct {
	Path         string          `json:"path"`
	AbsolutePath string          `json:"absolutePath"`
	TargetFile   string          `json:"target_file"`
	Content      string          `json:"content"`
	Diff         string          `json:"diff"`
	Command      string          `json:"command"`
	Search       string          `json:"search"`
	Replace      string          `json:"replace"`
	CodeEdit     string          `json:"code_edit"`
	Input        string          `json:"input"`
	ServerName   string          `json:"server_name"`
	ToolName     string          `json:"tool_name"`
	Arguments    json.RawMessage `json:"arguments"`
	Context      string          `json:"context"`
	Files        json.RawMessage `json:"files"`
	Args         json.RawMessage `json:"args"`
}

// path is the file a tool works on.
func (a *toolArgs) path() string { return first(a.AbsolutePath, a.Path, a.TargetFile) }

// summaryTools write a summary of the conversation (Cline's
// summarize_task and condense).
var summaryTools = map[string]bool{"summarize_task": true, "condense": true}

// toolUse normalizes a tool_use block (native tool calling).
func (b *builder) toolUse(key string, bl *block, model string) {
	id := first(bl.ID, bl.CallID)
	var a toolArgs
	if jsonx.FirstByte(bl.Input) == '{' {
		_ = json.Unmarshal(bl.Input, &a) // fields of other types stay empty
	}
	c := &call{key: first(id, key), id: id, name: bl.Name}
	b.toolCall(c, &a, jsonx.RenderArgs(bl.Input), model)
}

// xmlTool normalizes a tool call written as XML in assistant text.
func (b *builder) xmlTool(key string, s segment, model string) {
	m := make(map[string]string, len(s.params))
	lines := make([]string, 0, len(s.params))
	for _, p := range s.params {
		m[p.name] = p.value
		lines = append(lines, p.name+": "+p.value)
	}
	var a toolArgs
	if data, err := json.Marshal(m); err == nil {
		_ = json.Unmarshal(data, &a)
	}
	b.toolCall(&call{key: key, name: s.name}, &a, strings.Join(lines, "\n"), model)
}

// toolCall emits a call as a command start, an MCP call, a summary or a
// tool call with the files it touches, and waits for its result.
func (b *builder) toolCall(c *call, a *toolArgs, text, model string) {
	e := core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: c.name, CallID: c.id,
		Text: text, Model: model, Key: c.key}
	switch {
	case c.name == "execute_command":
		c.kind, c.command = callCommand, a.Command
		e.Type, e.Command, e.Text = core.TypeCommandStart, a.Command, a.Command
	case c.name == "use_mcp_tool":
		c.kind, c.server, c.tool = callMCP, a.ServerName, a.ToolName
		e.Activity = activity(c, capture(jsonx.String(a.Arguments)), core.CapturePending)
	case summaryTools[c.name] && a.Context != "":
		e.Type, e.Role, e.Native, e.Text = core.TypeSummary, core.RoleAssistant, c.name, a.Context
	default:
		e.Files = toolFiles(c.name, a)
		if len(e.Files) > 0 && e.Files[0].Op != core.OpRead {
			c.kind, c.path = callEdit, a.path()
		}
	}
	c.idx = b.add(e)
	b.pending = append(b.pending, c)
	if c.id != "" {
		b.calls[c.id] = c
	}
}

// toolFiles lists the files a tool call reads or changes, with the text of
// edits and writes.
func toolFiles(name string, a *toolArgs) []core.FileTouch {
	p := a.path()
	switch name {
	case "read_file":
		return readPaths(a)
	case "write_to_file":
		return touch(p, core.FileTouch{Op: core.OpWrite, NewText: a.Content})
	case "replace_in_file", "apply_diff":
		return diffEdits(p, a.Diff)
	case "search_and_replace":
		return touch(p, core.FileTouch{Op: core.OpEdit, OldText: a.Search, NewText: a.Replace})
	case "insert_content":
		return touch(p, core.FileTouch{Op: core.OpEdit, NewText: a.Content})
	case "edit_file":
		return touch(p, core.FileTouch{Op: core.OpEdit, NewText: a.CodeEdit})
	case "apply_patch":
		return applypatch.Parse(first(a.Input, a.Diff), nil)
	}
	return nil
}

func touch(path string, ft core.FileTouch) []core.FileTouch {
	if path == "" {
		return nil
	}
	ft.Path = path
	return []core.FileTouch{ft}
}

// readPaths lists the files of read_file: path, a files array (Roo native
// calls) or <path> tags inside an XML args parameter (Roo).
func readPaths(a *toolArgs) []core.FileTouch {
	var paths []string
	if p := a.path(); p != "" {
		paths = append(paths, p)
	}
	var files []struct {
		Path string `json:"path"`
	}
	if jsonx.FirstByte(a.Files) == '[' && json.Unmarshal(a.Files, &files) == nil {
		for _, f := range files {
			paths = append(paths, f.Path)
		}
	}
	paths = append(paths, xmlValues(jsonx.String(a.Args), "path")...)
	var out []core.FileTouch
	for _, p := range paths {
		if p != "" {
			out = append(out, core.FileTouch{Path: p, Op: core.OpRead})
		}
	}
	return out
}

func activity(c *call, args, result string) *core.Activity {
	return &core.Activity{Invocation: core.Invocation{Protocol: "mcp", Server: c.server, Tool: c.tool,
		ProviderCallID: c.id, Arguments: args, Result: result}}
}

func capture(s string) string {
	if t := strings.TrimSpace(s); t == "" || t == "null" {
		return core.CaptureAbsent
	}
	return core.CaptureCaptured
}
