package cursor

import (
	"encoding/json"
	"strings"

	"ctx/core"
)

// mcpArgs is the params document of an MCP call as far as it names the
// server and tool: flat, or a one-element "tools" list whose parameters
// are the call's arguments.
type mcpArgs struct {
	Server   string `json:"serverName"`
	ToolName string `json:"toolName"`
	Name     string `json:"name"`
	Tools    []struct {
		Name       string          `json:"name"`
		Server     string          `json:"serverName"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"tools"`
}

// mcpIdentity returns the server and tool of an MCP call and the text of
// its arguments. The params fields win; a name "mcp_<server>_<tool>" is
// split at its first underscore when they are absent.
func mcpIdentity(c *call) (server, tool string, args []byte) {
	var a mcpArgs
	_ = json.Unmarshal(c.args, &a)
	server, tool, args = a.Server, a.ToolName, c.args
	if tool == "" {
		tool = a.Name
	}
	if len(a.Tools) > 0 {
		t := a.Tools[0]
		if server == "" {
			server = t.Server
		}
		if tool == "" {
			tool = t.Name
		}
		if p := embedded(t.Parameters); len(p) > 0 {
			args = p
		}
	}
	if rest, ok := strings.CutPrefix(c.name, "mcp_"); ok && (server == "" || tool == "") {
		s, t, _ := strings.Cut(rest, "_")
		if server == "" {
			server = s
		}
		if tool == "" {
			tool = t
		}
	}
	if tool == "" {
		tool = c.name
	}
	return server, tool, args
}

func capture(doc []byte) string {
	if len(doc) == 0 {
		return core.CaptureAbsent
	}
	return core.CaptureCaptured
}

func activity(server, tool, callID, args, result string) *core.Activity {
	return &core.Activity{Invocation: core.Invocation{Protocol: "mcp", Server: server, Tool: tool,
		ProviderCallID: callID, Arguments: args, Result: result}}
}

// mcpCall adds an MCP tool call with its Activity; the result capture is
// pending until the call has ended.
func (b *sessionBuilder) mcpCall(c *call) {
	server, tool, args := mcpIdentity(c)
	argState := capture(args)
	callIdx := b.add(core.Event{Timestamp: c.ts, Role: core.RoleAssistant, Type: core.TypeToolCall,
		Tool: c.name, CallID: c.tf.ToolCallID, Text: renderArgs(args), Model: c.model,
		Activity: activity(server, tool, c.tf.ToolCallID, argState, core.CapturePending),
		Key:      key(c.id, "/call")})
	if !c.done() {
		return
	}
	resState := capture(c.result)
	b.ps.Events[callIdx].Activity.Invocation.Result = resState
	b.add(core.Event{Timestamp: c.ts, Role: core.RoleTool, Type: core.TypeToolOutput, Tool: c.name,
		CallID: c.tf.ToolCallID, Text: c.outputText(), IsError: c.failed(),
		Activity: activity(server, tool, c.tf.ToolCallID, argState, resState), Key: key(c.id, "/output")})
}
