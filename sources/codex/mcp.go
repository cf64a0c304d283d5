package codex

import (
	"bytes"
	"encoding/json"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// mcpDelimiter joins server and tool in Codex's qualified MCP tool names
// (MCP_TOOL_NAME_DELIMITER in codex-rs).
const mcpDelimiter = "__"

// mcpName splits a qualified MCP tool name. Evidence: the legacy fixture
// calls "task-master-ai__next_task" (server__tool, early codex-rs); later
// codex-rs qualifies as "mcp__server__tool"; newer builds may send the tool
// name with a namespace "mcp__server". Codex's own tools never contain
// "__". The first delimiter splits, so a tool name may contain "__".
func mcpName(name, namespace string) (server, tool string, ok bool) {
	if ns, found := strings.CutPrefix(namespace, "mcp"+mcpDelimiter); found && ns != "" && name != "" {
		return strings.TrimSuffix(ns, mcpDelimiter), name, true
	}
	rest := strings.TrimPrefix(name, "mcp"+mcpDelimiter)
	server, tool, found := strings.Cut(rest, mcpDelimiter)
	if !found || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

func activity(server, tool, callID, args, result string) *core.Activity {
	return &core.Activity{Invocation: core.Invocation{Protocol: "mcp", Server: server, Tool: tool,
		ProviderCallID: callID, Arguments: args, Result: result}}
}

func captured(args string) string {
	if strings.TrimSpace(args) == "" || args == "null" {
		return core.CaptureAbsent
	}
	return core.CaptureCaptured
}

// mcpCall emits an MCP tool call; its result stays pending until the output
// is read.
func (p *parser) mcpCall(it *item, server, tool, args string) {
	idx := p.toolCall(it.CallID, it.Name, jsonx.RenderArgs(json.RawMessage(args)), callMCP)
	p.event(idx).Activity = activity(server, tool, it.CallID, captured(args), core.CapturePending)
	ci := p.calls[it.CallID]
	ci.server, ci.mcpTool = server, tool
	p.calls[it.CallID] = ci
}

// mcpOutput emits an MCP result and marks its call's result captured.
func (p *parser) mcpOutput(callID string, ci callInfo, text string, isErr bool) {
	argsState := core.CaptureCaptured
	if call := p.event(ci.idx); call != nil && call.Activity != nil {
		call.Activity.Invocation.Result = core.CaptureCaptured
		argsState = call.Activity.Invocation.Arguments
	}
	p.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: ci.tool, CallID: callID,
		Text: text, IsError: isErr, Activity: activity(ci.server, ci.mcpTool, callID, argsState, core.CaptureCaptured),
		Key: p.callKey(callID, "/output")})
}

// mcpText renders an MCP result: the texts of a JSON content array, else
// the output as written.
func mcpText(s string) string {
	if jsonx.FirstByte([]byte(s)) != '[' {
		return s
	}
	var ps parts
	if jsonx.Decode([]byte(s), &ps) != nil || len(ps) == 0 {
		return s
	}
	return ps.join("\n")
}

// mcpEvent handles event_msg mcp_tool_call_begin/end. In a file whose
// response items carry the content they are twins of the function call and
// its output (other events without Activity, so an invocation is counted
// once); otherwise they are the call and its result.
func (p *parser) mcpEvent(it *item, data []byte) {
	ci, seen := p.call(it.CallID)
	twin := (seen && !ci.fromEvent) || (!seen && p.latched)
	if it.Invocation == nil || twin {
		p.other(it.Type, snippet(data))
		return
	}
	inv := it.Invocation
	name := "mcp" + mcpDelimiter + inv.Server + mcpDelimiter + inv.Tool
	args := string(bytes.TrimSpace(inv.Arguments))
	if it.Type == "mcp_tool_call_begin" {
		idx := p.toolCall(it.CallID, name, jsonx.RenderArgs(json.RawMessage(args)), callMCP)
		p.event(idx).Activity = activity(inv.Server, inv.Tool, it.CallID, captured(args), core.CapturePending)
		p.calls[it.CallID] = callInfo{kind: callMCP, tool: name, idx: idx, fromEvent: true,
			server: inv.Server, mcpTool: inv.Tool}
		return
	}
	text, isErr := mcpResult(it.Result)
	if !seen {
		p.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: name, CallID: it.CallID,
			Text: text, IsError: isErr, Activity: activity(inv.Server, inv.Tool, it.CallID, captured(args), core.CaptureCaptured),
			Key: p.callKey(it.CallID, "/output")})
		return
	}
	p.mcpOutput(it.CallID, ci, text, isErr)
}

// mcpResult renders {"Ok":{"content":[…]}} or {"Err":"…"}.
func mcpResult(raw json.RawMessage) (string, bool) {
	var r struct {
		Ok *struct {
			Content parts `json:"content"`
			IsError bool  `json:"isError"`
		} `json:"Ok"`
		Err json.RawMessage `json:"Err"`
	}
	if jsonx.Decode(raw, &r) != nil {
		return string(raw), false
	}
	if r.Ok != nil {
		return r.Ok.Content.join("\n"), r.Ok.IsError
	}
	if len(r.Err) > 0 {
		return jsonString(r.Err), true
	}
	return string(raw), false
}
