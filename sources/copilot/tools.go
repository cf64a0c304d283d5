package copilot

import (
	"cmp"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"ctx/core"
	"ctx/sources/jsonx"
)

// callKind says how a call's completion is normalized.
type callKind uint8

const (
	callTool  callKind = iota // tool_output
	callShell                 // command_output + command_finish
	callMCP                   // tool_output with Activity
)

// callRef is what a completion needs to know about its call.
type callRef struct {
	s       *session
	idx     int
	kind    callKind
	tool    string
	command string
}

// shellTools run a command line given as arguments.command.
var shellTools = map[string]bool{"bash": true, "powershell": true, "shell": true}

// toolCall emits one tool call, from an assistant message's toolRequests or
// from tool.execution_start when no request named it. A repeated call id
// only adds what the repeat knows more (the MCP server of newer builds).
func (p *parser) toolCall(s *session, callID, name string, args json.RawMessage, server, mcpTool string) {
	if ref := p.calls[callID]; ref != nil && callID != "" {
		if e := &ref.s.ps.Events[ref.idx]; server != "" && e.Activity == nil {
			e.Activity = activity(server, mcpTool, callID, captured(args), core.CapturePending)
			ref.kind = callMCP
		}
		return
	}
	e := core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: name, CallID: callID,
		Model: p.model, Key: callID, Text: renderArgs(args)}
	ref := &callRef{s: s, tool: name}
	switch {
	case server != "":
		ref.kind = callMCP
		e.Activity = activity(server, mcpTool, callID, captured(args), core.CapturePending)
	case shellTools[name]:
		ref.kind, ref.command = callShell, argString(args, "command")
		e.Type, e.Command, e.Text = core.TypeCommandStart, ref.command, ref.command
	default:
		e.Files = fileTouches(name, args)
	}
	ref.idx = p.add(s, e)
	if callID != "" {
		p.calls[callID] = ref
	}
}

// toolComplete emits a call's result: command output and finish for shell
// tools, a tool output (with Activity for MCP tools) otherwise. A failed
// call is marked as an error on the call too.
func (p *parser) toolComplete(s *session, rec *record, d *data) {
	if d.Model != "" {
		p.model = d.Model
	}
	ok := d.Success == nil || *d.Success
	text := ""
	if d.Result != nil {
		text = d.Result.Content
	}
	if !ok {
		text = strings.TrimSpace(cmp.Or(toolError(d.Error), text))
	}
	key := cmp.Or(d.ToolCallID, rec.ID)
	ref := p.calls[d.ToolCallID]
	if ref == nil || d.ToolCallID == "" {
		p.add(s, core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, CallID: d.ToolCallID,
			Text: text, IsError: !ok, Key: key + "/output"})
		return
	}
	call := &ref.s.ps.Events[ref.idx]
	call.IsError = call.IsError || !ok
	switch ref.kind {
	case callShell:
		p.shellOutput(s, ref, d, text, ok, key)
	case callMCP:
		var inv core.Invocation
		if call.Activity != nil {
			call.Activity.Invocation.Result = core.CaptureCaptured
			inv = call.Activity.Invocation
		}
		p.add(s, core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: ref.tool, CallID: d.ToolCallID,
			Text: text, IsError: !ok, Activity: activity(inv.Server, inv.Tool, d.ToolCallID, inv.Arguments, core.CaptureCaptured),
			Key: key + "/output"})
	default:
		p.add(s, core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: ref.tool, CallID: d.ToolCallID,
			Text: text, IsError: !ok, Key: key + "/output"})
	}
}

// exitRe is the exit marker Copilot appends to shell output.
var exitRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n?<exited with exit code (-?\d+)>\s*$`) })

// shellOutput emits a command's output and, when its exit code is known
// (result.contents[].exitCode, else the "<exited with exit code N>"
// marker), its finish.
func (p *parser) shellOutput(s *session, ref *callRef, d *data, text string, ok bool, key string) {
	var exit *int
	if d.Result != nil {
		for _, c := range d.Result.Contents {
			if c.ExitCode != nil && (c.Type == "shell_exit" || c.Type == "terminal") {
				exit = c.ExitCode
			}
		}
	}
	if m := exitRe().FindStringSubmatchIndex(text); m != nil {
		if n, err := strconv.Atoi(text[m[2]:m[3]]); err == nil && exit == nil {
			exit = &n
		}
		text = text[:m[0]]
	}
	failed := !ok || (exit != nil && *exit != 0)
	p.add(s, core.Event{Role: core.RoleTool, Type: core.TypeCommandOutput, Tool: ref.tool, CallID: d.ToolCallID,
		Command: ref.command, Text: text, IsError: failed, Key: key + "/output"})
	if exit != nil {
		p.add(s, core.Event{Role: core.RoleTool, Type: core.TypeCommandFinish, Tool: ref.tool, CallID: d.ToolCallID,
			Command: ref.command, Text: "exit code " + strconv.Itoa(*exit), ExitCode: exit, IsError: failed,
			Key: key + "/finish"})
	}
}

func activity(server, tool, callID, args, result string) *core.Activity {
	return &core.Activity{Invocation: core.Invocation{Protocol: "mcp", Server: server, Tool: tool,
		ProviderCallID: callID, Arguments: args, Result: result}}
}

// captured is the capture state of call arguments.
func captured(args json.RawMessage) string {
	if s := strings.TrimSpace(string(args)); s == "" || s == "null" {
		return core.CaptureAbsent
	}
	return core.CaptureCaptured
}

// argString reads one string argument.
func argString(args json.RawMessage, name string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return jsonString(args)
	}
	return jsonString(m[name])
}

// renderArgs renders a JSON object of arguments as "key: value" lines in
// their written order, strings unquoted; anything else is returned as is.
func renderArgs(args json.RawMessage) string {
	s := strings.TrimSpace(string(args))
	if !strings.HasPrefix(s, "{") {
		return jsonString(args)
	}
	if lines, ok := jsonx.ObjectLines(args, jsonString); ok {
		return lines
	}
	return s
}
