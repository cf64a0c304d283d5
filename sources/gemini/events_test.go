package gemini

import (
	"testing"

	"ctx/core"
)

// event is the part of an event these tests pin.
type event struct {
	Key    string
	Role   core.Role
	Type   core.EventType
	Native string
	Tool   string
	Text   string
}

func pin(ps core.ParsedSession) []event {
	out := make([]event, len(ps.Events))
	for i, e := range ps.Events {
		out[i] = event{e.Key, e.Role, e.Type, e.Native, e.Tool, e.Text}
	}
	return out
}

func TestUserMessages(t *testing.T) {
	lines := []string{metaLine,
		`{"id":"u1","timestamp":"2026-04-25T08:01:00Z","type":"user","content":[{"text":"Fix @a.go"},{"text":"\n--- a.go ---\npackage a"}],"displayContent":[{"text":"Fix @a.go"}]}`,
		`{"id":"u2","timestamp":"2026-04-25T08:01:01Z","type":"user","content":[{"text":"<session_context>\nOS: linux"}]}`,
		`{"id":"u3","timestamp":"2026-04-25T08:01:02Z","type":"user","content":"[Function Response: read_many_files]--- a.go ---"}`,
		`{"id":"u4","timestamp":"2026-04-25T08:01:03Z","type":"user","content":[{"functionResponse":{"id":"c9","name":"glob","response":{"output":"a.go"}}}]}`,
		`{"id":"u5","timestamp":"2026-04-25T08:01:04Z","type":"user","content":[{"text":"see"},{"inlineData":{"mimeType":"image/png","data":"AAAA"}}]}`,
		`{"id":"w1","timestamp":"2026-04-25T08:01:05Z","type":"warning","content":"slow"}`,
		`{"id":"e1","timestamp":"2026-04-25T08:01:06Z","type":"error","content":"failed"}`,
	}
	ps := only(t, parseBytes(t, chat(lines...), "session-x.jsonl"))
	want := []event{
		{"u1", core.RoleUser, core.TypeMessage, "", "", "Fix @a.go"},
		{"u2", core.RoleSystem, core.TypeOther, "injected_context", "", "<session_context>\nOS: linux"},
		{"u3", core.RoleTool, core.TypeToolOutput, "", "read_many_files", "--- a.go ---"},
		{"call:c9/output", core.RoleTool, core.TypeToolOutput, "", "glob", "a.go"},
		{"u5", core.RoleUser, core.TypeMessage, "", "", "see[inline data image/png]"},
		{"w1", core.RoleSystem, core.TypeOther, "warning", "", "slow"},
		{"e1", core.RoleSystem, core.TypeOther, "error", "", "failed"},
	}
	checkPinned(t, pin(ps), want)
	if !ps.Events[6].IsError || ps.Events[5].IsError {
		t.Error("only error messages are errors")
	}
}

func TestGeminiMessage(t *testing.T) {
	lines := []string{metaLine,
		`{"id":"g1","timestamp":"2026-04-25T08:02:00Z","type":"gemini","model":"m1","content":[{"text":"plan","thought":true},{"text":"I will look."}],` +
			`"thoughts":[{"subject":"Looking","description":"at files","timestamp":"2026-04-25T08:01:59Z"}],` +
			`"toolCalls":[` +
			`{"id":"c1","name":"glob","args":{"pattern":"*.go"},"status":"success","timestamp":"2026-04-25T08:02:01Z","result":[{"functionResponse":{"id":"c1","name":"glob","response":{"output":"a.go"}}}]},` +
			`{"id":"c2","name":"mcp_db_query","args":{"sql":"select 1"},"status":"executing"},` +
			`{"id":"c3","name":"run_shell_command","args":{"command":"sleep 9","is_background":true},"status":"success","result":[{"functionResponse":{"id":"c3","name":"run_shell_command","response":{"output":"Command moved to background (PID: 4). Output hidden. Press Ctrl+B to view."}}}]},` +
			`{"id":"c4","name":"write_todos","args":{"todos":[]},"status":"cancelled"}]}`,
		`{"id":"g2","timestamp":"2026-04-25T08:03:00Z","type":"gemini","content":[{"functionCall":{"id":"c5","name":"ls","args":{"dir_path":"."}}},{"functionCall":{"id":"c1","name":"glob","args":{}}}]}`,
	}
	ps := only(t, parseBytes(t, chat(lines...), "session-x.jsonl"))
	want := []event{
		{"g1/thoughts", core.RoleAssistant, core.TypeReasoning, "", "", "Looking\nat files\n\nplan"},
		{"g1", core.RoleAssistant, core.TypeMessage, "", "", "I will look."},
		{"call:c1", core.RoleAssistant, core.TypeToolCall, "", "glob", "pattern: *.go"},
		{"call:c1/output", core.RoleTool, core.TypeToolOutput, "", "glob", "a.go"},
		{"call:c2", core.RoleAssistant, core.TypeToolCall, "", "mcp_db_query", "sql: select 1"},
		{"call:c3", core.RoleAssistant, core.TypeCommandStart, "", "run_shell_command", "sleep 9"},
		{"call:c3/output", core.RoleTool, core.TypeCommandOutput, "", "run_shell_command", "Command moved to background (PID: 4). Output hidden. Press Ctrl+B to view."},
		{"call:c4", core.RoleAssistant, core.TypeToolCall, "", "write_todos", "todos: []"},
		{"call:c4/output", core.RoleTool, core.TypeToolOutput, "", "write_todos", "cancelled"},
		{"call:c5", core.RoleAssistant, core.TypeToolCall, "", "ls", "dir_path: ."},
	}
	checkPinned(t, pin(ps), want)
	if inv := ps.Events[4].Activity; inv == nil || inv.Invocation.Result != core.CapturePending ||
		inv.Invocation.Server != "db" || inv.Invocation.Tool != "query" {
		t.Errorf("pending MCP call activity %+v", inv)
	}
	if e := ps.Events[0]; e.Timestamp.Format("15:04:05") != "08:01:59" || e.Model != "m1" {
		t.Errorf("reasoning at %s model %q", e.Timestamp, e.Model)
	}
	if e := ps.Events[3]; e.Timestamp.Format("15:04:05") != "08:02:01" {
		t.Errorf("output at %s, want the call's own time", e.Timestamp)
	}
	if !ps.Events[8].IsError {
		t.Error("a cancelled call's output is an error")
	}
}

func checkPinned(t *testing.T, got, want []event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}
