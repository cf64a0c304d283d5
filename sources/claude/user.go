package claude

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ctx/core"
)

// user turns a user record into a prompt, a compaction summary, an "other"
// meta record, and one output event per tool_result block.
func (p *parser) user(rec *record, ts time.Time, line int) {
	m := rec.Message
	switch {
	case m == nil || !m.Content.Present:
		p.problem(core.ProblemInvalidRecord, line)
	case rec.IsCompactSummary:
		p.add(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeSummary,
			Text: m.Content.plain("\n\n"), Key: rec.UUID})
	case rec.IsMeta:
		p.add(core.Event{Timestamp: ts, Role: core.RoleUser, Type: core.TypeOther,
			Native: "user/meta", Text: m.Content.plain("\n\n"), Key: rec.UUID})
	case !m.Content.IsList:
		p.appendText(rec.UUID, core.TypeMessage, core.RoleUser, m.Content.Text, ts, "")
	default:
		for i := range m.Content.Blocks {
			b := &m.Content.Blocks[i]
			if b.Type == "tool_result" {
				p.toolResult(rec, b, ts)
				continue
			}
			p.appendText(rec.UUID, core.TypeMessage, core.RoleUser, b.placeholder(), ts, "")
		}
	}
}

// toolResult adds the output event of a tool_result block, paired with its
// call by the tool_use id.
func (p *parser) toolResult(rec *record, b *block, ts time.Time) {
	c := p.calls[b.ToolUseID]
	if c == nil && p.st != nil && b.ToolUseID != "" && p.st.closed("c", b.ToolUseID) {
		return
	}
	if c == nil {
		c = &call{}
	}
	ev := core.Event{Timestamp: ts, Role: core.RoleTool, Type: core.TypeToolOutput,
		Text: b.Content.plain("\n"), Tool: c.name, CallID: b.ToolUseID, IsError: b.IsError,
		Key: suffix(b.ToolUseID, "/result")}
	if c.mcp != nil {
		ev.Activity = &core.Activity{Invocation: *c.mcp}
	}
	switch c.kind {
	case kindBash, kindBashOutput:
		p.shellResult(ev, c, rec)
		return
	case kindEdit:
		if !b.IsError && c.path != "" {
			ev.Files = []core.FileTouch{{Path: c.path, Op: editOp(c.name, rec)}}
		}
	}
	p.add(ev)
}

// editOp names the change an edit result reports: Write says whether it
// created or updated the file.
func editOp(name string, rec *record) string {
	if name != "Write" {
		return "edit"
	}
	if decodeToolResult(rec.ToolUseResult).Type == "create" {
		return "create"
	}
	return "write"
}

// shellResult adds command_output and, when the command has finished,
// command_finish for a Bash or BashOutput result.
func (p *parser) shellResult(ev core.Event, c *call, rec *record) {
	r := decodeToolResult(rec.ToolUseResult)
	ev.Type, ev.Command = core.TypeCommandOutput, c.command
	var code int
	var known, finished bool
	if c.kind == kindBashOutput {
		if r.Command != "" {
			ev.Command = r.Command
		}
		if r.ExitCode != nil {
			code, known, finished = *r.ExitCode, true, true
		}
	} else if r.BackgroundTaskID == "" {
		code, known = exitCode(ev.IsError, ev.Text)
		finished = true
	}
	if known {
		ev.ExitCode = intPtr(code)
	}
	p.add(ev)
	if !finished {
		return
	}
	fin := core.Event{Timestamp: ev.Timestamp, Role: core.RoleTool, Type: core.TypeCommandFinish,
		Text: finishText(code, known, r.Interrupted), Tool: ev.Tool, CallID: ev.CallID,
		Command: ev.Command, IsError: ev.IsError || (known && code != 0), Key: suffix(ev.CallID, "/finish")}
	if known {
		fin.ExitCode = intPtr(code)
	}
	p.add(fin)
}

// exitCode derives a Bash exit code: 0 for a result that is not an error, N
// for an error whose text starts with "Exit code N", unknown otherwise.
func exitCode(isError bool, text string) (int, bool) {
	if !isError {
		return 0, true
	}
	rest, ok := strings.CutPrefix(text, "Exit code ")
	if !ok {
		return 0, false
	}
	end := strings.IndexAny(rest, " \r\n")
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil {
		return 0, false
	}
	return n, true
}

func finishText(code int, known, interrupted bool) string {
	switch {
	case known:
		return fmt.Sprintf("exit code %d", code)
	case interrupted:
		return "interrupted (exit code unknown)"
	}
	return "failed (exit code unknown)"
}

func intPtr(n int) *int { return &n }
