package cursor

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"ctx/core"
)

// Tool enum values of toolFormerData.tool that decide the event kind when
// the name is not known.
const (
	toolEnumTerminal = 15
	toolEnumMCP      = 19
)

// toolFormer is a bubble's toolFormerData: one tool call and its result.
// params and result are JSON documents, usually inside JSON strings.
type toolFormer struct {
	ToolCallID     string          `json:"toolCallId"`
	Name           string          `json:"name"`
	Tool           flexInt         `json:"tool"`
	Params         json.RawMessage `json:"params"`
	RawArgs        json.RawMessage `json:"rawArgs"`
	Result         json.RawMessage `json:"result"`
	Status         string          `json:"status"`
	AdditionalData json.RawMessage `json:"additionalData"`
	Error          json.RawMessage `json:"error"`
}

// shellTools are the names of Cursor's terminal tools across versions.
var shellTools = map[string]bool{"run_terminal_command_v2": true, "run_terminal_cmd": true,
	"run_terminal_command": true}

// finalStatuses are the statuses of a call that has ended.
var finalStatuses = map[string]bool{"completed": true, "error": true, "failed": true,
	"cancelled": true, "canceled": true, "rejected": true, "aborted": true, "skipped": true}

// failedStatuses are the final statuses of a call that did not succeed.
var failedStatuses = map[string]bool{"error": true, "failed": true, "cancelled": true,
	"canceled": true, "rejected": true, "aborted": true, "skipped": true}

// call is a tool call being turned into events.
type call struct {
	id     string // bubble id, the base of the event keys
	tf     *toolFormer
	name   string
	args   []byte // the params document (else rawArgs)
	result []byte // the result document
	errMsg string // the error the call ended with
	ts     time.Time
	model  string
}

// done reports whether the call has ended (a result, an error or a final
// status); running calls get no output events yet.
func (c *call) done() bool {
	return len(c.result) > 0 || c.errMsg != "" || finalStatuses[c.tf.Status]
}

// failed reports whether the call ended without success.
func (c *call) failed() bool { return c.errMsg != "" || failedStatuses[c.tf.Status] }

// tool adds the events of a bubble's tool call.
func (b *sessionBuilder) tool(bu *bubble, ts time.Time, model string) {
	tf := bu.Tool
	c := &call{id: bu.BubbleID, tf: tf, name: tf.Name, args: embedded(tf.Params),
		result: embedded(tf.Result), errMsg: errorText(embedded(tf.Error)), ts: ts, model: model}
	if len(c.args) == 0 {
		c.args = embedded(tf.RawArgs)
	}
	if c.name == "" {
		c.name = "tool_" + strconv.Itoa(tf.Tool.N)
	}
	switch {
	case shellTools[c.name] || (tf.Name == "" && tf.Tool.N == toolEnumTerminal):
		b.command(c)
	case strings.HasPrefix(c.name, "mcp_") || tf.Tool.N == toolEnumMCP:
		b.mcpCall(c)
	default:
		b.toolCall(c)
	}
}

// toolCall adds a plain tool call, with the files it touched, and its
// output once it ended.
func (b *sessionBuilder) toolCall(c *call) {
	b.add(core.Event{Timestamp: c.ts, Role: core.RoleAssistant, Type: core.TypeToolCall, Tool: c.name,
		CallID: c.tf.ToolCallID, Text: renderArgs(c.args), Files: b.fileTouches(c), Model: c.model,
		Key: key(c.id, "/call")})
	if c.done() {
		b.add(core.Event{Timestamp: c.ts, Role: core.RoleTool, Type: core.TypeToolOutput, Tool: c.name,
			CallID: c.tf.ToolCallID, Text: c.outputText(), IsError: c.failed(), Key: key(c.id, "/output")})
	}
}

// outputText is the readable result: a read's contents, a command's
// output, else the result document; the error or status when there is
// no result.
func (c *call) outputText() string {
	if len(c.result) == 0 {
		if c.errMsg != "" {
			return c.errMsg
		}
		return c.tf.Status
	}
	var r struct {
		Contents *string `json:"contents"`
		Output   *string `json:"output"`
	}
	if json.Unmarshal(c.result, &r) == nil {
		switch {
		case r.Contents != nil:
			return *r.Contents
		case r.Output != nil:
			return *r.Output
		}
	}
	return valueText(c.result)
}

// errorText reads a tool error: {clientVisibleErrorMessage|message|…} or
// a plain value.
func errorText(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	var e struct {
		Client  string `json:"clientVisibleErrorMessage"`
		Model   string `json:"modelVisibleErrorMessage"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil {
		for _, s := range []string{e.Client, e.Message, e.Model} {
			if s != "" {
				return s
			}
		}
	}
	if t := valueText(raw); t != "{}" {
		return t
	}
	return ""
}

// commandResult is the result document of a terminal tool.
type commandResult struct {
	ExitCode    *int `json:"exitCode"`
	ExitCodeAlt *int `json:"exit_code"`
	Rejected    bool `json:"rejected"`
}

// command adds a terminal call as command_start, command_output (when a
// result exists) and command_finish (when it ended), with the exit code
// when the result records one.
func (b *sessionBuilder) command(c *call) {
	var a struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(c.args, &a) != nil || a.Command == "" {
		a.Command = valueText(c.args)
	}
	ev := core.Event{Timestamp: c.ts, Role: core.RoleAssistant, Type: core.TypeCommandStart, Tool: c.name,
		CallID: c.tf.ToolCallID, Command: a.Command, Text: a.Command, Model: c.model, Key: key(c.id, "/call")}
	b.add(ev)
	var r commandResult
	_ = json.Unmarshal(c.result, &r)
	ev.Role, ev.Model = core.RoleTool, ""
	if len(c.result) > 0 {
		out := ev
		out.Type, out.Key, out.Text = core.TypeCommandOutput, key(c.id, "/output"), c.outputText()
		b.add(out)
	}
	if !c.done() {
		return
	}
	exit := r.ExitCode
	if exit == nil {
		exit = r.ExitCodeAlt
	}
	fin := ev
	fin.Type, fin.Key, fin.ExitCode = core.TypeCommandFinish, key(c.id, "/finish"), exit
	fin.IsError = c.failed() || r.Rejected || (exit != nil && *exit != 0) || failedStatuses[c.extraStatus()]
	fin.Text = finishText(c, &r, exit)
	b.add(fin)
}

// extraStatus is additionalData.status ("success", "error", "rejected").
func (c *call) extraStatus() string {
	var ad struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(embedded(c.tf.AdditionalData), &ad)
	return ad.Status
}

func finishText(c *call, r *commandResult, exit *int) string {
	switch {
	case exit != nil:
		return "exit code " + strconv.Itoa(*exit)
	case r.Rejected || c.extraStatus() == "rejected":
		return "command rejected"
	case c.errMsg != "":
		return "command failed: " + c.errMsg
	case c.tf.Status != "":
		return "command " + c.tf.Status
	}
	return "command finished"
}
