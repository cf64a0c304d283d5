package codex

import (
	"encoding/json"
	"strconv"

	"ctx/core"
	"ctx/sources/applypatch"
	"ctx/sources/jsonx"
)

// shellTools are the function names of Codex's shell tools across versions.
var shellTools = map[string]bool{"shell": true, "container.exec": true, "shell_command": true,
	"exec_command": true, "local_shell": true}

func (p *parser) functionCall(it *item) {
	args := jsonString(it.Arguments)
	switch name := it.Name; {
	case shellTools[name]:
		cmd, patch := shellCommand(args)
		if patch != "" {
			p.patchCall(it, patch)
			return
		}
		p.commandStart(it.CallID, name, cmd)
	case name == "apply_patch":
		p.patchCall(it, patchFromArgs(args))
	default:
		if server, tool, ok := mcpName(name, it.Namespace); ok {
			p.mcpCall(it, server, tool, args)
			return
		}
		p.toolCall(it.CallID, name, jsonx.RenderArgs(json.RawMessage(args)), callTool)
	}
}

func (p *parser) customToolCall(it *item) {
	if it.Name == "apply_patch" {
		p.patchCall(it, it.Input)
		return
	}
	p.toolCall(it.CallID, it.Name, it.Input, callTool)
}

func (p *parser) localShellCall(it *item) {
	var a struct {
		Command []string `json:"command"`
	}
	_ = jsonx.Decode(it.Action, &a)
	id := it.CallID
	if id == "" {
		id = it.ID
	}
	cmd := argvCommand(a.Command)
	if len(a.Command) >= 2 && isPatchTool(a.Command[0]) {
		p.patchCall(&item{CallID: id}, a.Command[1])
		return
	}
	p.commandStart(id, "local_shell", cmd)
}

func (p *parser) webSearchCall(it *item) {
	var a struct {
		Query string `json:"query"`
		URL   string `json:"url"`
	}
	_ = jsonx.Decode(it.Action, &a)
	text := a.Query
	if text == "" {
		text = a.URL
	}
	p.add(core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: "web_search",
		CallID: it.ID, Text: text, Key: p.itemKey("ws:", it)})
}

func (p *parser) commandStart(callID, tool, cmd string) {
	idx := p.add(core.Event{Role: core.RoleAssistant, Type: core.TypeCommandStart, Tool: tool,
		CallID: callID, Command: cmd, Text: cmd, Key: p.callKey(callID, "")})
	p.calls[callID] = callInfo{kind: callShell, tool: tool, command: cmd, idx: idx}
}

func (p *parser) toolCall(callID, name, text string, kind callKind) int {
	idx := p.add(core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: name,
		CallID: callID, Text: text, Key: p.callKey(callID, "")})
	p.calls[callID] = callInfo{kind: kind, tool: name, idx: idx}
	return idx
}

func (p *parser) patchCall(it *item, patch string) {
	idx := p.toolCall(it.CallID, "apply_patch", patch, callPatch)
	p.event(idx).Files = applypatch.Parse(patch, nil)
}

// callOutput normalizes a function or custom tool call output by the kind
// of its call; outputs of unknown calls are plain tool outputs.
func (p *parser) callOutput(it *item) {
	ci, _ := p.call(it.CallID)
	switch ci.kind {
	case callShell:
		p.shellOutput(it.CallID, ci, it.Output)
	case callMCP:
		p.mcpOutput(it.CallID, ci, mcpText(it.Output.Text), it.Output.Failed)
	default:
		text, exit, ok := jsonOutput(it.Output.Text)
		if ci.kind == callPatch {
			res := parseShellOutput(it.Output.Text)
			text, exit, ok = res.text, res.exit, true
		}
		if !ok {
			text = it.Output.Text
		}
		p.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: ci.tool,
			CallID: it.CallID, Text: text, ExitCode: exit, IsError: it.Output.Failed || failed(exit),
			Key: p.callKey(it.CallID, "/output")})
	}
}

func (p *parser) shellOutput(callID string, ci callInfo, out output) {
	res := parseShellOutput(out.Text)
	p.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandOutput, Tool: ci.tool,
		CallID: callID, Command: ci.command, Text: res.text, Key: p.callKey(callID, "/output")})
	if res.running {
		return
	}
	text := "command finished"
	if res.exit != nil {
		text = "exit code " + strconv.Itoa(*res.exit)
	}
	p.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandFinish, Tool: ci.tool,
		CallID: callID, Command: ci.command, Text: text, ExitCode: res.exit,
		IsError: out.Failed || failed(res.exit), Key: p.callKey(callID, "/finish")})
}

func failed(exit *int) bool { return exit != nil && *exit != 0 }
