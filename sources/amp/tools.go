package amp

import (
	"encoding/json"
	"strconv"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// toolInput is the part of a tool_use input the parser reads.
type toolInput struct {
	Cmd     string  `json:"cmd"`
	Command string  `json:"command"`
	Path    string  `json:"path"`
	OldStr  *string `json:"old_str"`
	NewStr  *string `json:"new_str"`
	Content *string `json:"content"`
}

// mcpPrefix qualifies MCP tools in Amp ("mcp__<server>__<tool>", the form
// its permission rules match).
const mcpPrefix = "mcp__"

// mcpName splits a qualified MCP tool name.
func mcpName(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, mcpPrefix)
	if !found {
		return "", "", false
	}
	server, tool, found = strings.Cut(rest, "__")
	return server, tool, found && server != "" && tool != ""
}

// toolUse emits a tool call: Bash as a command start, edit_file,
// create_file and Read with the file they touch, MCP tools with an
// Activity.
func (b *builder) toolUse(key string, bl *block, model string) {
	c := &call{id: bl.ID, name: bl.Name}
	if c.id != "" {
		key = c.id
	}
	var in toolInput
	if jsonx.FirstByte(bl.Input) == '{' {
		_ = json.Unmarshal(bl.Input, &in) // fields of other types stay empty
	}
	e := core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: bl.Name, CallID: bl.ID,
		Text: jsonx.RenderArgs(bl.Input), Model: model, Key: key}
	switch name := bl.Name; {
	case name == "Bash":
		c.command = first(in.Cmd, in.Command)
		e.Type, e.Command, e.Text = core.TypeCommandStart, c.command, c.command
	case name == "edit_file" && in.Path != "":
		e.Files = []core.FileTouch{{Path: in.Path, Op: core.OpEdit, OldText: deref(in.OldStr), NewText: deref(in.NewStr)}}
	case name == "create_file" && in.Path != "":
		e.Files = []core.FileTouch{{Path: in.Path, Op: core.OpCreate, NewText: deref(in.Content)}}
	case (name == "Read" || name == "read_file") && in.Path != "":
		e.Files = []core.FileTouch{{Path: in.Path, Op: core.OpRead}}
	default:
		if server, tool, ok := mcpName(name); ok {
			c.server, c.tool = server, tool
			e.Activity = activity(c, capture(bl.Input), core.CapturePending)
		}
	}
	c.idx = b.add(e)
	if c.id != "" {
		b.calls[c.id] = c
	}
}

// toolResult emits a tool result by its call: a command's output and
// finish (run.result {output, exitCode}), an MCP result, or a tool output.
func (b *builder) toolResult(key string, bl *block) {
	c := b.calls[bl.ToolUseID]
	r := bl.Run
	if r == nil {
		r = &run{}
	}
	text, exit := runText(r)
	isErr := r.Status == "error"
	if c == nil {
		b.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, CallID: bl.ToolUseID, Text: text,
			IsError: isErr, Key: first(bl.ToolUseID, key) + "/output"})
		return
	}
	e := core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: c.name, CallID: c.id, Text: text,
		IsError: isErr, Key: c.id + "/output"}
	switch {
	case c.name == "Bash":
		e.Type, e.Command = core.TypeCommandOutput, c.command
		b.add(e)
		b.finishCommand(c, r, exit)
		return
	case c.server != "":
		args := core.CaptureCaptured
		if a := b.ps.Events[c.idx].Activity; a != nil {
			a.Invocation.Result = core.CaptureCaptured
			args = a.Invocation.Arguments
		}
		e.Activity = activity(c, args, core.CaptureCaptured)
	}
	b.add(e)
}

// finishCommand emits a command's finish once it ran to completion.
func (b *builder) finishCommand(c *call, r *run, exit *int) {
	if exit == nil && r.Status != "done" && r.Status != "error" {
		return
	}
	text := "command finished"
	if exit != nil {
		text = "exit code " + strconv.Itoa(*exit)
	}
	b.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandFinish, Tool: c.name, CallID: c.id,
		Command: c.command, Text: text, ExitCode: exit, IsError: r.Status == "error" || (exit != nil && *exit != 0),
		Key: c.id + "/finish"})
}

// runText renders a run: its result (a string, lines, text blocks, or an
// object's output / diff / content), else its error, progress or status;
// exit is result.exitCode when present.
func runText(r *run) (text string, exit *int) {
	if len(r.Result) > 0 && string(r.Result) != "null" {
		return valueText(r.Result)
	}
	if len(r.Error) > 0 && string(r.Error) != "null" {
		var e struct {
			Message string `json:"message"`
		}
		if jsonx.FirstByte(r.Error) == '{' && json.Unmarshal(r.Error, &e) == nil && e.Message != "" {
			return e.Message, nil
		}
		return jsonx.String(r.Error), nil
	}
	if len(r.Progress) > 0 && string(r.Progress) != "null" {
		text, _ = valueText(r.Progress)
		return text, nil
	}
	return r.Status, nil
}

// valueText renders a result value.
func valueText(raw json.RawMessage) (string, *int) {
	switch jsonx.FirstByte(raw) {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return string(raw), nil
		}
		lines := make([]string, 0, len(items))
		for _, it := range items {
			lines = append(lines, itemText(it))
		}
		return strings.Join(lines, "\n"), nil
	case '{':
		var o struct {
			Output   *json.RawMessage `json:"output"`
			Diff     *string          `json:"diff"`
			Content  json.RawMessage  `json:"content"`
			ExitCode *int             `json:"exitCode"`
		}
		if json.Unmarshal(raw, &o) != nil {
			return string(raw), nil
		}
		switch {
		case o.Output != nil:
			return jsonx.String(*o.Output), o.ExitCode
		case o.Diff != nil:
			return *o.Diff, o.ExitCode
		case jsonx.FirstByte(o.Content) == '[':
			text, _ := valueText(o.Content)
			return text, o.ExitCode
		}
		return string(raw), o.ExitCode
	}
	return jsonx.String(raw), nil
}

// itemText renders an element of a result array: a string or a text block.
func itemText(raw json.RawMessage) string {
	var tb struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if jsonx.FirstByte(raw) == '{' && json.Unmarshal(raw, &tb) == nil && tb.Type == "text" {
		return tb.Text
	}
	return jsonx.String(raw)
}

func activity(c *call, args, result string) *core.Activity {
	return &core.Activity{Invocation: core.Invocation{Protocol: "mcp", Server: c.server, Tool: c.tool,
		ProviderCallID: c.id, Arguments: args, Result: result}}
}

func capture(raw json.RawMessage) string {
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		return core.CaptureAbsent
	}
	return core.CaptureCaptured
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
