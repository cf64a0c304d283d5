package cline

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"ctx/core"
)

// takeID returns the pending call with the provider call id.
func (b *builder) takeID(id string) *call {
	c := b.calls[id]
	if c == nil {
		return nil
	}
	b.unpend(c)
	return c
}

// takeName returns the first pending call of the previous assistant
// message whose name matches a result header ("subagents" answers
// use_subagents).
func (b *builder) takeName(name string) *call {
	for _, exact := range []bool{true, false} {
		for _, c := range b.pending {
			if c.name == name || (!exact && (strings.Contains(c.name, name) || strings.Contains(name, c.name))) {
				b.unpend(c)
				return c
			}
		}
	}
	return nil
}

func (b *builder) unpend(c *call) {
	for i, p := range b.pending {
		if p == c {
			b.pending = append(b.pending[:i], b.pending[i+1:]...)
			return
		}
	}
}

// output emits the result of a call (nil when it cannot be paired): a
// command's output and finish, an MCP result, or a tool output.
func (b *builder) output(key string, c *call, name, body string, isErr bool) {
	if c == nil {
		b.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: name, Text: body,
			IsError: isErr || errorText(body), Key: key})
		return
	}
	switch c.kind {
	case callCommand:
		b.commandOutput(c, body, isErr)
	case callMCP:
		b.mcpOutput(c, c.key+"/output", body, isErr)
	default:
		e := core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: c.name, CallID: c.id,
			Text: body, IsError: isErr || errorText(body), Key: c.key + "/output"}
		if c.kind == callEdit {
			e.Files = userEdits(c.path, body)
		}
		b.add(e)
	}
}

// mcpOutput emits an MCP result and marks its call's result captured.
func (b *builder) mcpOutput(c *call, key, body string, isErr bool) {
	args := core.CaptureCaptured
	if a := b.ps.Events[c.idx].Activity; a != nil {
		a.Invocation.Result = core.CaptureCaptured
		args = a.Invocation.Arguments
	}
	b.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Tool: c.name, CallID: c.id,
		Text: body, IsError: isErr || errorText(body), Activity: activity(c, args, core.CaptureCaptured), Key: key})
}

// commandOutput emits a command's output and, once it finished, its exit.
func (b *builder) commandOutput(c *call, body string, isErr bool) {
	res := parseCommandResult(body)
	b.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandOutput, Tool: c.name, CallID: c.id,
		Command: c.command, Text: res.output, Key: c.key + "/output"})
	if !res.done {
		return
	}
	text := "command finished"
	if res.exit != nil {
		text = "exit code " + strconv.Itoa(*res.exit)
	}
	b.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandFinish, Tool: c.name, CallID: c.id,
		Command: c.command, Text: text, ExitCode: res.exit, IsError: isErr || (res.exit != nil && *res.exit != 0),
		Key: c.key + "/finish"})
}

// cmdResult is an execute_command result split into output and exit.
type cmdResult struct {
	output string
	exit   *int
	done   bool // the command ran to completion
}

var exitRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)exit code:?\s*(-?\d+)`) })

// parseCommandResult reads the forms the extensions write:
// "Command executed successfully (exit code 0).\nOutput:\n…",
// "Command failed with exit code 1.\nOutput:\n…", "Command executed.\nOutput:\n…"
// (older Cline, no code), Roo's "Command executed in terminal … Exit code: 0\nOutput:\n…",
// and "Command is still running in the user's terminal." (no finish yet).
func parseCommandResult(body string) cmdResult {
	head, out, found := strings.Cut(body, "\nOutput:")
	if !found {
		head, out = body, body
		if line, _, ok := strings.Cut(body, "\n"); ok {
			head = line
		}
	} else {
		out = strings.TrimPrefix(out, "\n")
	}
	res := cmdResult{output: out}
	if strings.Contains(head, "still running") {
		return res
	}
	if m := exitRE().FindStringSubmatch(head); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			res.exit = &n
		}
	}
	res.done = res.exit != nil || strings.HasPrefix(head, "Command executed") || strings.HasPrefix(head, "Command failed")
	return res
}

// errorText recognizes tool results that report a failure.
func errorText(body string) bool {
	for _, p := range []string{"The tool execution failed", "[ERROR]", "<error>", "Error:"} {
		if strings.HasPrefix(body, p) {
			return true
		}
	}
	return false
}

// editNotes introduce a diff of changes made to the agent's write before it
// was saved: the user's own edits, and the editor's auto-formatting.
var editNotes = []string{
	"The user made the following updates to your content:\n\n",
	"the user's editor applied the following auto-formatting to your content:\n\n",
}

// userEdits returns the diffs an edit result reports as applied on top of
// the agent's edit, as patches of the edited file.
func userEdits(path, body string) []core.FileTouch {
	if path == "" {
		return nil
	}
	var out []core.FileTouch
	for _, note := range editNotes {
		i := strings.Index(body, note)
		if i < 0 {
			continue
		}
		rest := body[i+len(note):]
		end := strings.Index(rest, "\n\n\n")
		if end < 0 {
			end = len(rest)
		}
		if patch := strings.Trim(rest[:end], "\n"); patch != "" {
			out = append(out, core.FileTouch{Path: path, Op: core.OpPatch, Patch: patch})
		}
	}
	return out
}
