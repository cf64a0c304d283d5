package copilot

import (
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

const ts = "2026-03-21T13:00:00.000Z"

func startLine(id string) string {
	return ev("session.start", "s0", ts, `{"sessionId":"`+id+`","copilotVersion":"1.0.10","startTime":"`+ts+`","selectedModel":"claude-sonnet-4.6","context":{"cwd":"/w","branch":"main"}}`)
}

// TestSubagents checks that events of a subagent (agentId, or
// parentToolCallId in builds without agentId) become child sessions whose
// parent and root are the main session.
func TestSubagents(t *testing.T) {
	res := parseLines(t, "/h/session-state/"+idA+"/events.jsonl", nil,
		startLine(idA),
		ev("assistant.message", "m1", ts, `{"messageId":"m1","content":"","toolRequests":[{"toolCallId":"task1","name":"task","arguments":{"prompt":"look"}}]}`),
		ev("subagent.started", "sa", ts, `{"toolCallId":"task1","agentName":"explore","agentDisplayName":"Explore","agentDescription":"Find the config"}`),
		ev("assistant.message", "m2", ts, `{"messageId":"m2","content":"Looking.","parentToolCallId":"task1"}`),
		ev("tool.execution_start", "t1", ts, `{"toolCallId":"g1","toolName":"grep","arguments":{"pattern":"x"},"parentToolCallId":"task1"}`),
		`{"type":"assistant.message","data":{"messageId":"m3","content":"Agent two."},"id":"m3e","timestamp":"`+ts+`","agentId":"ag-7"}`,
		ev("tool.execution_complete", "t2", ts, `{"toolCallId":"g1","success":true,"result":{"content":"a.go"},"parentToolCallId":"task1"}`),
		ev("tool.execution_complete", "t3", ts, `{"toolCallId":"task1","success":true,"result":{"content":"found it"}}`),
	)
	if len(res.Sessions) != 3 || len(res.Problems) != 0 {
		t.Fatalf("sessions %d problems %v", len(res.Sessions), res.Problems)
	}
	main, task, agent := res.Sessions[0], res.Sessions[1], res.Sessions[2]
	if main.Session.NativeID != idA || main.Session.IsSubagent {
		t.Errorf("main %+v", main.Session)
	}
	if task.Session.NativeID != idA+"/task-task1" || task.ParentNativeID != idA || task.RootNativeID != idA ||
		task.Session.ParentSessionID != main.Session.ID || task.Session.RootSessionID != main.Session.ID ||
		task.Session.AgentType != "explore" || task.Session.Title != "Find the config" || task.Session.Workspace != "/w" {
		t.Errorf("task subagent %+v", task.Session)
	}
	if got := texts(task.Events); !reflect.DeepEqual(got, []string{"Looking.", "pattern: x", "a.go"}) {
		t.Errorf("task events %q", got)
	}
	if agent.Session.NativeID != idA+"/agent-ag-7" || agent.Session.AgentID != "ag-7" || !agent.Session.IsSubagent {
		t.Errorf("agent subagent %+v", agent.Session)
	}
	if out := byType(main, core.TypeToolOutput); len(out) != 1 || out[0].Text != "found it" {
		t.Errorf("main outputs %q", texts(out))
	}
}

// TestMCPAndFileTools checks MCP activity (named by tool.execution_start's
// mcpServerName), the older str_replace_editor, apply_patch and a shell
// exit code carried in result.contents.
func TestMCPAndFileTools(t *testing.T) {
	patch := `*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** Add File: src/b.go\n+package b\n*** End Patch`
	res := parseLines(t, "flat.jsonl", nil,
		ev("assistant.message", "m1", ts, `{"messageId":"m1","content":"","toolRequests":[`+
			`{"toolCallId":"c1","name":"playwright-browser_navigate","arguments":{"url":"http://x"}},`+
			`{"toolCallId":"c2","name":"str_replace_editor","arguments":{"command":"str_replace","path":"/w/a.go","old_str":"a","new_str":"b"}},`+
			`{"toolCallId":"c3","name":"apply_patch","arguments":"`+patch+`"},`+
			`{"toolCallId":"c4","name":"bash","arguments":{"command":"make test","mode":"sync"}}]}`),
		ev("tool.execution_start", "s1", ts, `{"toolCallId":"c1","toolName":"playwright-browser_navigate","arguments":{"url":"http://x"},"mcpServerName":"playwright","mcpToolName":"browser_navigate"}`),
		ev("tool.execution_complete", "e1", ts, `{"toolCallId":"c1","success":true,"result":{"content":"navigated"}}`),
		ev("tool.execution_complete", "e4", ts, `{"toolCallId":"c4","success":true,"result":{"content":"FAIL","contents":[{"type":"shell_exit","exitCode":2,"shellId":"1"}]}}`),
	)
	ps := res.Sessions[0]
	if ps.Session.NativeID != "flat" {
		t.Errorf("native %q", ps.Session.NativeID)
	}
	calls := byType(ps, core.TypeToolCall)
	if a := calls[0].Activity; a == nil || a.Invocation != (core.Invocation{Protocol: "mcp", Server: "playwright",
		Tool: "browser_navigate", ProviderCallID: "c1", Arguments: core.CaptureCaptured, Result: core.CaptureCaptured}) {
		t.Errorf("mcp call activity %+v", a)
	}
	if out := byType(ps, core.TypeToolOutput); len(out) != 1 || out[0].Activity == nil || out[0].Activity.Invocation.Server != "playwright" {
		t.Errorf("mcp output %+v", out)
	}
	if f := calls[1].Files; !reflect.DeepEqual(f, []core.FileTouch{{Path: "/w/a.go", Op: core.OpEdit, OldText: "a", NewText: "b"}}) {
		t.Errorf("str_replace_editor files %+v", f)
	}
	want := []core.FileTouch{{Path: "src/a.go", Op: core.OpPatch, Patch: "*** Update File: src/a.go\n@@\n-x\n+y\n"},
		{Path: "src/b.go", Op: core.OpCreate, Patch: "*** Add File: src/b.go\n+package b\n"}}
	if f := calls[2].Files; !reflect.DeepEqual(f, want) {
		t.Errorf("apply_patch files %+v", f)
	}
	fin := byType(ps, core.TypeCommandFinish)
	if len(fin) != 1 || *fin[0].ExitCode != 2 || !fin[0].IsError || fin[0].Command != "make test" {
		t.Errorf("finish %+v", fin)
	}
}

// TestMessages checks chunked messages, reasoning written twice, attached
// files, compaction and a tool result without its call.
func TestMessages(t *testing.T) {
	res := parseLines(t, "x.jsonl", nil,
		ev("user.message", "u1", ts, `{"content":"look at this","transformedContent":"<current_datetime>x</current_datetime>look at this","attachments":[{"type":"file","path":"/w/a.go","displayName":"a.go"},{"type":"directory","path":"/w"}]}`),
		ev("assistant.reasoning", "r1", ts, `{"reasoningId":"r1","content":"Thinking."}`),
		ev("assistant.message", "m1", ts, `{"messageId":"m1","content":"Hello ","reasoningText":"Thinking.","model":"gpt-5"}`),
		ev("assistant.message", "m1b", ts, `{"messageId":"m1","content":"world."}`),
		ev("session.compaction_start", "c1", ts, `{}`),
		ev("session.compaction_complete", "c2", ts, `{"success":true,"summaryContent":"We looked at a.go."}`),
		ev("tool.execution_complete", "e9", ts, `{"toolCallId":"orphan","success":false,"error":{"message":"denied","code":"denied"}}`),
	)
	ps := res.Sessions[0]
	var kinds []string
	for _, e := range ps.Events {
		kinds = append(kinds, string(e.Type))
	}
	if want := []string{"message", "reasoning", "message", "compaction", "summary", "tool_output"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	if e := ps.Events[0]; e.Text != "look at this" || !reflect.DeepEqual(e.Files, []core.FileTouch{{Path: "/w/a.go", Op: core.OpRead}}) {
		t.Errorf("prompt %+v", e)
	}
	if e := ps.Events[2]; e.Text != "Hello world." || e.Model != "gpt-5" || ps.Session.Model != "gpt-5" {
		t.Errorf("reply %+v", e)
	}
	if e := ps.Events[4]; e.Text != "We looked at a.go." {
		t.Errorf("summary %+v", e)
	}
	if e := ps.Events[5]; e.Text != "denied" || !e.IsError || e.CallID != "orphan" {
		t.Errorf("orphan output %+v", e)
	}
}

func TestRenderArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"path":"C:\\a","view_range":[1,2]}`, "path: C:\\a\nview_range: [1,2]"},
		{`{}`, ""},
		{`"plain"`, "plain"},
		{``, ""},
		{`{"a":`, `{"a":`},
	}
	for _, tt := range tests {
		if got := renderArgs([]byte(tt.in)); got != tt.want {
			t.Errorf("renderArgs(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := core.Clip("aé", 2); got != "a…" {
		t.Errorf("clip cut a rune: %q", got)
	}
	if !strings.Contains(nativeID("/x/excerpts/events.jsonl", ""), "excerpts") {
		t.Errorf("nativeID of a non-uuid directory")
	}
}
