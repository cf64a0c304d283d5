package opencode

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/jsonx"
)

// builtinTools are OpenCode's own tool names across versions. Any other
// name containing "_" is taken to be an MCP tool, "<server>_<tool>".
var builtinTools = map[string]bool{
	"bash": true, "edit": true, "write": true, "read": true, "glob": true, "grep": true,
	"list": true, "patch": true, "apply_patch": true, "multiedit": true, "webfetch": true,
	"websearch": true, "codesearch": true, "todowrite": true, "todoread": true, "task": true,
	"skill": true, "question": true, "lsp": true, "batch": true, "invalid": true,
	"plan_enter": true, "plan_exit": true, "lsp_diagnostics": true, "lsp_hover": true,
}

// mcpName splits an MCP tool name at its first "_". OpenCode names MCP
// tools "<server>_<tool>" with both parts sanitized to [A-Za-z0-9_-], so
// a server name containing "_" splits too early; nothing in the part marks
// the tool as MCP.
func mcpName(name string) (server, tool string, ok bool) {
	if builtinTools[name] {
		return "", "", false
	}
	server, tool, found := strings.Cut(name, "_")
	if !found || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

// toolRun is one tool part with its times and outcome resolved.
type toolRun struct {
	id            string
	p             *partData
	callTS, outTS time.Time
	done, failed  bool   // completed or error; error
	out           string // the output, or the error text of a failed part
}

// toolEvents normalizes a tool part: bash becomes a command start, output
// and finish; other tools a tool call and, once the part is completed or
// failed, its output. Pending and running parts have no output yet.
func toolEvents(id string, p *partData, m *messageAcc) []core.Event {
	st := &p.State
	r := toolRun{id: id, p: p, callTS: st.Time.Start.Time(),
		done: st.Status == "completed" || st.Status == "error", failed: st.Status == "error", out: st.Output}
	r.outTS = firstTime(st.Time.End.Time(), r.callTS)
	if r.failed {
		r.out = st.Error
	}
	if p.Tool == "bash" {
		return bashEvents(&r)
	}
	call := core.Event{Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: p.Tool, CallID: p.CallID,
		Text: renderInput(st.Input), Timestamp: r.callTS, Model: m.data.ModelID, Key: id}
	if !r.failed {
		call.Files = touches(p.Tool, st.Input, st.Metadata, m.data.Path.Cwd)
	}
	server, tool, isMCP := mcpName(p.Tool)
	if isMCP {
		result := core.CapturePending
		if r.done {
			result = core.CaptureCaptured
		}
		call.Activity = activity(server, tool, p.CallID, captured(st.Input), result)
	}
	events := []core.Event{call}
	if r.done {
		ev := core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: p.Tool, CallID: p.CallID,
			Text: r.out, IsError: r.failed, Timestamp: r.outTS, Key: id + "/output"}
		if isMCP {
			ev.Activity = activity(server, tool, p.CallID, captured(st.Input), core.CaptureCaptured)
		}
		events = append(events, ev)
	}
	return events
}

// bashMeta is the metadata of a bash part: exit is the exit code (null when
// the process was killed); older versions wrote stdout/stderr.
type bashMeta struct {
	Output *string  `json:"output"`
	Exit   *float64 `json:"exit"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
}

func bashEvents(r *toolRun) []core.Event {
	p := r.p
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(p.State.Input, &in)
	start := core.Event{Role: core.RoleAssistant, Type: core.TypeCommandStart, Tool: p.Tool, CallID: p.CallID,
		Command: in.Command, Text: in.Command, Timestamp: r.callTS, Key: r.id}
	if !r.done {
		return []core.Event{start}
	}
	var meta bashMeta
	_ = json.Unmarshal(p.State.Metadata, &meta)
	out := r.out
	if out == "" && !r.failed {
		out = metaOutput(&meta)
	}
	var exit *int
	if meta.Exit != nil {
		n := int(*meta.Exit)
		exit = &n
	}
	text := "command finished"
	switch {
	case exit != nil:
		text = "exit code " + strconv.Itoa(*exit)
	case r.failed:
		text = "command failed"
	}
	return []core.Event{start,
		{Role: core.RoleTool, Type: core.TypeCommandOutput, Tool: p.Tool, CallID: p.CallID, Command: in.Command,
			Text: out, IsError: r.failed, Timestamp: r.outTS, Key: r.id + "/output"},
		{Role: core.RoleTool, Type: core.TypeCommandFinish, Tool: p.Tool, CallID: p.CallID, Command: in.Command,
			Text: text, ExitCode: exit, IsError: r.failed || (exit != nil && *exit != 0), Timestamp: r.outTS,
			Key: r.id + "/finish"},
	}
}

func metaOutput(m *bashMeta) string {
	if m.Output != nil {
		return *m.Output
	}
	if m.Stderr == "" {
		return m.Stdout
	}
	return strings.TrimRight(m.Stdout, "\n") + "\n" + m.Stderr
}

func activity(server, tool, callID, args, result string) *core.Activity {
	return &core.Activity{Invocation: core.Invocation{Protocol: "mcp", Server: server, Tool: tool,
		ProviderCallID: callID, Arguments: args, Result: result}}
}

func captured(input json.RawMessage) string {
	s := strings.TrimSpace(string(input))
	if s == "" || s == "null" || s == "{}" {
		return core.CaptureAbsent
	}
	return core.CaptureCaptured
}

// renderInput renders a tool's input as jsonx.RenderArgs does; a null
// input (a call with no arguments) is empty.
func renderInput(raw json.RawMessage) string {
	if string(bytes.TrimSpace(raw)) == "null" {
		return ""
	}
	return jsonx.RenderArgs(raw)
}
