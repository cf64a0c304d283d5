package claude

import (
	"strings"
	"testing"

	"ctx/core"
)

// lines joins JSONL records, each followed by a newline.
func lines(recs ...string) string { return strings.Join(recs, "\n") + "\n" }

const sid = `"sessionId":"11111111-2222-3333-4444-555555555555"`

// Streamed blocks of one message id, interleaved with a tool result, make
// one message, one reasoning event and one call each.
func TestStreamedMessageMerges(t *testing.T) {
	in := lines(
		`{"type":"user","uuid":"u1",`+sid+`,"timestamp":"2026-01-02T03:04:05.000Z","cwd":"/w","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","source":{}}]}}`,
		`{"type":"assistant","uuid":"a1",`+sid+`,"timestamp":"2026-01-02T03:04:06.000Z","message":{"id":"msg_1","model":"m1","content":[{"type":"thinking","thinking":"hmm"}]}}`,
		`{"type":"assistant","uuid":"a2",`+sid+`,"timestamp":"2026-01-02T03:04:07.000Z","message":{"id":"msg_1","model":"m1","content":[{"type":"text","text":"first"}]}}`,
		`{"type":"assistant","uuid":"a3",`+sid+`,"timestamp":"2026-01-02T03:04:08.000Z","message":{"id":"msg_1","model":"m1","content":[{"type":"tool_use","id":"t1","name":"Grep","input":{"pattern":"x","path":"/w"}}]}}`,
		`{"type":"user","uuid":"u2",`+sid+`,"timestamp":"2026-01-02T03:04:09.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}]}}`,
		`{"type":"assistant","uuid":"a4",`+sid+`,"timestamp":"2026-01-02T03:04:10.000Z","message":{"id":"msg_1","model":"m1","content":[{"type":"text","text":"second"},{"type":"thinking","thinking":"more"}]}}`,
		`{"type":"assistant","uuid":"a4",`+sid+`,"timestamp":"2026-01-02T03:04:10.000Z","message":{"id":"msg_1","model":"m1","content":[{"type":"text","text":"second"}]}}`,
	)
	s := parseString(t, "p/11111111-2222-3333-4444-555555555555.jsonl", in).Sessions[0]
	want := []struct {
		typ        core.EventType
		key, text  string
		role       core.Role
		tool, call string
	}{
		{core.TypeMessage, "u1", "look\n\n[image]", core.RoleUser, "", ""},
		{core.TypeReasoning, "msg_1/thinking", "hmm\n\nmore", core.RoleAssistant, "", ""},
		{core.TypeMessage, "msg_1", "first\n\nsecond", core.RoleAssistant, "", ""},
		{core.TypeToolCall, "t1", "pattern: x\npath: /w", core.RoleAssistant, "Grep", "t1"},
		{core.TypeToolOutput, "t1/result", "a\n[image]\nb", core.RoleTool, "Grep", "t1"},
	}
	if len(s.Events) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(s.Events), len(want), s.Events)
	}
	for i, w := range want {
		e := s.Events[i]
		if e.Type != w.typ || e.Key != w.key || e.Text != w.text || e.Role != w.role || e.Tool != w.tool || e.CallID != w.call {
			t.Errorf("event %d = %s %q %q %s %s %s, want %+v", i, e.Type, e.Key, e.Text, e.Role, e.Tool, e.CallID, w)
		}
	}
	if s.Session.Model != "m1" || s.Events[2].Model != "m1" || s.Events[2].Timestamp.Second() != 7 {
		t.Errorf("model/timestamp: %+v", s.Events[2])
	}
}

func TestShellExitCodes(t *testing.T) {
	use := func(id, name, input string) string {
		return `{"type":"assistant","uuid":"a` + id + `",` + sid + `,"message":{"id":"m` + id + `","content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]}}`
	}
	result := func(id, content string, isError bool, tur string) string {
		e := "false"
		if isError {
			e = "true"
		}
		return `{"type":"user","uuid":"r` + id + `",` + sid + `,"message":{"content":[{"type":"tool_result","tool_use_id":"` + id + `","content":` + content + `,"is_error":` + e + `}]},"toolUseResult":` + tur + `}`
	}
	in := lines(
		use("b1", "Bash", `{"command":"make test","description":"run"}`),
		result("b1", `"Exit code 2\nFAIL"`, true, `"Error: Exit code 2\nFAIL"`),
		use("b2", "Bash", `{"command":"true"}`),
		result("b2", `[{"type":"text","text":"ok"}]`, false, `{"stdout":"ok","stderr":"","interrupted":false}`),
		use("b3", "Bash", `{"command":"sleep 100","run_in_background":true}`),
		result("b3", `"Command running in background with ID: bash_1"`, false, `{"backgroundTaskId":"bash_1"}`),
		use("b4", "BashOutput", `{"bash_id":"bash_1"}`),
		result("b4", `"<status>completed</status>"`, false, `{"shellId":"bash_1","command":"sleep 100","status":"completed","exitCode":7}`),
		use("b5", "Bash", `{"command":"vim"}`),
		result("b5", `"[Request interrupted by user for tool use]"`, true, `{"interrupted":true}`),
	)
	s := parseString(t, "x.jsonl", in).Sessions[0]
	tests := []struct {
		key, text, command string
		code               int
	}{
		{"b1/result", "Exit code 2\nFAIL", "make test", 2},
		{"b1/finish", "exit code 2", "make test", 2},
		{"b2/result", "ok", "true", 0},
		{"b2/finish", "exit code 0", "true", 0},
		{"b3/result", "Command running in background with ID: bash_1", "sleep 100", -1},
		{"b4/result", "<status>completed</status>", "sleep 100", 7},
		{"b4/finish", "exit code 7", "sleep 100", 7},
		{"b5/finish", "interrupted (exit code unknown)", "vim", -1},
	}
	for _, tt := range tests {
		e := byKey(t, s, tt.key)
		if e.Text != tt.text || e.Command != tt.command || code(e.ExitCode) != tt.code {
			t.Errorf("%s: %q %q exit %d, want %q %q %d", tt.key, e.Text, e.Command, code(e.ExitCode), tt.text, tt.command, tt.code)
		}
	}
	for _, e := range s.Events {
		if e.Key == "b3/finish" {
			t.Error("a background command has a finish event")
		}
	}
	if b4 := byKey(t, s, "b4"); b4.Type != core.TypeToolCall || byKey(t, s, "b4/result").Type != core.TypeCommandOutput {
		t.Errorf("BashOutput call %+v", b4)
	}
}

func TestExitCodeText(t *testing.T) {
	tests := []struct {
		isError bool
		text    string
		code    int
		known   bool
	}{
		{false, "anything", 0, true},
		{true, "Exit code 1", 1, true},
		{true, "Exit code 127\ncommand not found", 127, true},
		{true, "Exit code -1 killed", -1, true},
		{true, "Exit code x", 0, false},
		{true, "Error: boom", 0, false},
		{true, "", 0, false},
	}
	for _, tt := range tests {
		code, known := exitCode(tt.isError, tt.text)
		if code != tt.code || known != tt.known {
			t.Errorf("exitCode(%v, %q) = %d %v, want %d %v", tt.isError, tt.text, code, known, tt.code, tt.known)
		}
	}
}

func TestMCPInvocation(t *testing.T) {
	in := lines(
		`{"type":"assistant","uuid":"a1",`+sid+`,"message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"mcp__my_server__get__item","input":{"id":3}}]}}`,
		`{"type":"user","uuid":"u1",`+sid+`,"message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"found","is_error":true}]}}`,
	)
	s := parseString(t, "x.jsonl", in).Sessions[0]
	call, out := byKey(t, s, "t1"), byKey(t, s, "t1/result")
	want := core.Invocation{Protocol: "mcp", Server: "my_server", Tool: "get__item", ProviderCallID: "t1",
		Arguments: "captured", Result: "pending"}
	if call.Activity == nil || call.Activity.Invocation != want || call.Text != "id: 3" {
		t.Fatalf("call %+v activity %+v", call, call.Activity)
	}
	want.Result = "captured"
	if out.Activity == nil || out.Activity.Invocation != want || !out.IsError || out.Tool != call.Tool {
		t.Errorf("output %+v activity %+v", out, out.Activity)
	}
	for _, name := range []string{"mcp__", "mcp__server", "mcp____tool", "mcp__server__", "Bash"} {
		if _, ok := mcpInvocation(name); ok {
			t.Errorf("%q parsed as an MCP tool", name)
		}
	}
}

func TestTitlesAndFallbacks(t *testing.T) {
	tests := []struct {
		name, path, in    string
		native, title     string
		parent, agentType string
	}{
		{"ai title wins over summary", "d/s.jsonl", lines(
			`{"type":"summary","summary":"old","leafUuid":"l"}`,
			`{"type":"ai-title","aiTitle":"first",`+sid+`}`,
			`{"type":"ai-title","aiTitle":"second",`+sid+`}`),
			"11111111-2222-3333-4444-555555555555", "second", "", ""},
		{"custom title wins", "d/s.jsonl", lines(
			`{"type":"custom-title","customTitle":"mine",`+sid+`}`,
			`{"type":"ai-title","aiTitle":"gen",`+sid+`}`),
			"11111111-2222-3333-4444-555555555555", "mine", "", ""},
		{"no session id", "d/abc.jsonl", lines(`{"type":"permission-mode","permissionMode":"plan"}`),
			"abc", "", "", ""},
		{"file name wins over a copied session id", "d/99999999-2222-3333-4444-555555555555.jsonl",
			lines(`{"type":"user","uuid":"u",` + sid + `,"message":{"content":"hi"}}`),
			"99999999-2222-3333-4444-555555555555", "", "", ""},
		{"new layout subagent without records", "p/sess-1/subagents/agent-abc.jsonl", "",
			"sess-1/agent-abc", "", "sess-1", ""},
		{"agent id from records", "", lines(`{"type":"user","uuid":"u",` + sid + `,"agentId":"f00","isSidechain":true,"message":{"content":"hi"}}`),
			"11111111-2222-3333-4444-555555555555/agent-f00", "", "11111111-2222-3333-4444-555555555555", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parseString(t, tt.path, tt.in).Sessions[0]
			if s.Session.NativeID != tt.native || s.Session.Title != tt.title || s.ParentNativeID != tt.parent {
				t.Errorf("native %q title %q parent %q, want %q %q %q", s.Session.NativeID, s.Session.Title,
					s.ParentNativeID, tt.native, tt.title, tt.parent)
			}
		})
	}
}

func TestSubagentMeta(t *testing.T) {
	res, err := ParseReader(strings.NewReader(lines(`{"type":"user","uuid":"u",`+sid+`,"agentId":"a1","message":{"content":"go"}}`)),
		core.SourceFile{Path: "p/s/subagents/agent-a1.jsonl"}, &SubagentMeta{AgentType: "Explore", Description: "Find things"})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Sessions[0].Session
	if s.AgentType != "Explore" || s.Title != "Find things" || !s.IsSubagent || s.AgentID != "a1" {
		t.Errorf("session %+v", s)
	}
}
