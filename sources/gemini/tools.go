package gemini

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/jsonx"
)

// Tool names Gemini CLI has used for shell runs and file edits.
var (
	shellTools = map[string]bool{"run_shell_command": true}
	editTools  = map[string]bool{"replace": true, "edit": true, "smart_edit": true}
	readTools  = map[string]bool{"read_file": true}
	writeTools = map[string]bool{"write_file": true}
)

// toolArgs are the arguments ctx interprets; paths went by file_path,
// absolute_path (2025) and path across versions.
type toolArgs struct {
	Command      string  `json:"command"`
	FilePath     string  `json:"file_path"`
	AbsolutePath string  `json:"absolute_path"`
	Path         string  `json:"path"`
	OldString    *string `json:"old_string"`
	NewString    *string `json:"new_string"`
	Content      *string `json:"content"`
}

func (a *toolArgs) path() string {
	for _, p := range []string{a.FilePath, a.AbsolutePath, a.Path} {
		if p != "" {
			return p
		}
	}
	return ""
}

// call is a tool call record with what ctx read of it.
type call struct {
	tc     *toolCall
	key    string
	model  string
	ts     time.Time // the message's time
	outTS  time.Time // the call's own (completion) time
	args   toolArgs
	result result
	done   bool // it has a result, or a final status
	failed bool
}

// toolCall adds the events of the i-th tool call of m.
func (b *builder) toolCall(m *message, i int, ts time.Time) {
	tc := &m.ToolCalls[i]
	c := call{tc: tc, key: partKey(m.ID, tc.ID, "/call", i, ""), model: m.Model, ts: ts,
		outTS: parseTime(tc.Timestamp), result: readResult(tc.Result)}
	if c.outTS.IsZero() {
		c.outTS = ts
	}
	if jsonx.FirstByte(tc.Args) == '{' {
		_ = json.Unmarshal(tc.Args, &c.args) // a field of another type stays empty
	}
	c.done = c.result.present || finalStatus(tc.Status)
	c.failed = c.result.isErr || tc.Status == "error" || tc.Status == "cancelled"
	if tc.ID != "" {
		b.calls[tc.ID] = true
		if c.done {
			b.outputs[tc.ID] = true
		}
	}
	if shellTools[tc.Name] {
		b.shell(&c)
		return
	}
	b.tool(&c)
}

// finalStatus reports whether a call status means it will not change.
func finalStatus(s string) bool {
	return s == "success" || s == "error" || s == "cancelled"
}

// tool adds a tool_call and, when done, its tool_output.
func (b *builder) tool(c *call) {
	tc := c.tc
	ev := core.Event{Timestamp: c.ts, Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: tc.Name,
		CallID: tc.ID, Text: argsText(tc.Name, tc.Args), Model: c.model, Key: c.key}
	ev.Files = fileTouches(c)
	inv, isMCP := mcpInvocation(tc)
	if isMCP {
		inv.Result = core.CapturePending
		if c.done {
			inv.Result = core.CaptureAbsent
			if c.result.present {
				inv.Result = core.CaptureCaptured
			}
		}
		ev.Activity = &core.Activity{Invocation: inv}
	}
	b.add(ev)
	if !c.done {
		return
	}
	out := core.Event{Timestamp: c.outTS, Role: core.RoleTool, Type: core.TypeToolOutput, Tool: tc.Name,
		CallID: tc.ID, Text: c.result.text, IsError: c.failed, Key: c.key + "/output"}
	if out.Text == "" && !c.result.present {
		out.Text = tc.Status
	}
	if isMCP {
		out.Activity = &core.Activity{Invocation: inv}
	}
	b.add(out)
}

// shell adds a command_start and, when done, its command_output and (unless
// the command went to the background) a command_finish with the exit code
// read from the output text.
func (b *builder) shell(c *call) {
	tc := c.tc
	cmd := c.args.Command
	start := core.Event{Timestamp: c.ts, Role: core.RoleAssistant, Type: core.TypeCommandStart, Tool: tc.Name,
		CallID: tc.ID, Command: cmd, Text: cmd, Model: c.model, Key: c.key}
	if start.Text == "" {
		start.Text = argsText(tc.Name, tc.Args)
	}
	b.add(start)
	if !c.done {
		return
	}
	b.add(core.Event{Timestamp: c.outTS, Role: core.RoleTool, Type: core.TypeCommandOutput, Tool: tc.Name,
		CallID: tc.ID, Command: cmd, Text: c.result.text, IsError: c.failed, Key: c.key + "/output"})
	exit, background := shellExit(c.result.text, c.result.isErr)
	if background {
		return
	}
	fin := core.Event{Timestamp: c.outTS, Role: core.RoleTool, Type: core.TypeCommandFinish, Tool: tc.Name,
		CallID: tc.ID, Command: cmd, ExitCode: exit, IsError: c.failed, Key: c.key + "/finish"}
	switch {
	case exit != nil:
		fin.Text = "exit code " + strconv.Itoa(*exit)
		fin.IsError = fin.IsError || *exit != 0
	case tc.Status != "":
		fin.Text = tc.Status
	default:
		fin.Text = "finished"
	}
	b.add(fin)
}

// mcpInvocation names the server and tool of an MCP call: from its display
// name "<tool> (<server> MCP Server)" when present, else by splitting
// mcp_<server>_<tool> at the first "_" after the prefix, as Gemini CLI
// does (a server name has no "_"; a tool name may).
func mcpInvocation(tc *toolCall) (core.Invocation, bool) {
	inv := core.Invocation{Protocol: "mcp", ProviderCallID: tc.ID, Arguments: core.CaptureCaptured}
	if a := strings.TrimSpace(string(tc.Args)); a == "" || a == "null" {
		inv.Arguments = core.CaptureAbsent
	}
	if rest, ok := strings.CutSuffix(tc.DisplayName, " MCP Server)"); ok {
		if i := strings.LastIndex(rest, " ("); i > 0 && i+2 < len(rest) {
			inv.Tool, inv.Server = rest[:i], rest[i+2:]
			return inv, true
		}
	}
	rest, ok := strings.CutPrefix(tc.Name, "mcp_")
	if !ok {
		return inv, false
	}
	server, tool, ok := strings.Cut(rest, "_")
	if !ok || server == "" || tool == "" {
		return inv, false
	}
	inv.Server, inv.Tool = server, tool
	return inv, true
}
