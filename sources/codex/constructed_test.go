package codex

import (
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

// Small constructed rollouts for shapes the real fixtures lack. Shapes follow
// the codex-rs protocol types (ResponseItem, EventMsg, SessionSource).

func parseLines(t *testing.T, lines ...string) core.ParsedSession {
	t.Helper()
	res := parseBytes(t, []byte(strings.Join(lines, "\n")+"\n"), "bad.jsonl")
	if len(res.Problems) != 0 {
		t.Errorf("problems %v", res.Problems)
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("sessions %d", len(res.Sessions))
	}
	return res.Sessions[0]
}

func env(ts, typ, payload string) string {
	return `{"timestamp":"2025-12-15T11:00:` + ts + `Z","type":"` + typ + `","payload":` + payload + `}`
}

func summary(ps core.ParsedSession) []string {
	var out []string
	for _, e := range ps.Events {
		s := string(e.Type)
		switch {
		case e.Native != "":
			s += "/" + e.Native
		case e.Tool != "":
			s += "/" + e.Tool
		case e.Role != "":
			s += "/" + string(e.Role)
		}
		out = append(out, s)
	}
	return out
}

func TestSubagent(t *testing.T) {
	tests := []struct {
		name, source, parent, agentType string
	}{
		{"thread spawn", `{"subagent":{"thread_spawn":{"parent_thread_id":"019b-parent","depth":1,"agent_role":"explorer"}}}`,
			"019b-parent", "explorer"},
		{"review helper", `{"subagent":"review"}`, "", "review"},
		{"cli", `"cli"`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := parseLines(t, env("00", "session_meta", `{"id":"019b-child","timestamp":"2025-12-15T11:00:00Z","cwd":"/w","source":`+tt.source+`}`))
			s := ps.Session
			if ps.ParentNativeID != tt.parent || s.AgentType != tt.agentType || s.IsSubagent != (tt.parent != "") {
				t.Fatalf("parent %q type %q subagent %v", ps.ParentNativeID, s.AgentType, s.IsSubagent)
			}
			if tt.parent == "" {
				return
			}
			pid := core.NewSessionID(core.ProviderCodex, tt.parent)
			if ps.RootNativeID != tt.parent || s.ParentSessionID != pid || s.RootSessionID != pid {
				t.Errorf("root %q parent id %v root id %v, want %v", ps.RootNativeID, s.ParentSessionID, s.RootSessionID, pid)
			}
		})
	}
}

func TestEventMessagesOnly(t *testing.T) {
	ps := parseLines(t,
		metaLine,
		env("01", "event_msg", `{"type":"user_message","message":"<environment_context>x</environment_context>","kind":"environment_context"}`),
		env("02", "event_msg", `{"type":"user_message","message":"fix the bug","kind":"plain"}`),
		env("03", "event_msg", `{"type":"agent_reasoning","text":"**Looking**"}`),
		env("04", "event_msg", `{"type":"agent_message","message":"done"}`),
	)
	want := []string{"other/session_meta", "other/injected_context", "message/user", "reasoning/assistant", "message/assistant"}
	if got := summary(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

func TestTwinBeforeResponseItem(t *testing.T) {
	ps := parseLines(t,
		metaLine,
		env("01", "event_msg", `{"type":"user_message","message":"hello"}`),
		userLine("2025-12-15T11:00:01Z", "hello"),
		env("02", "event_msg", `{"type":"agent_message","message":"hi"}`),
		env("02", "response_item", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}`),
	)
	want := []string{"other/session_meta", "message/user", "message/assistant"}
	if got := summary(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

func TestShellForms(t *testing.T) {
	ps := parseLines(t,
		metaLine,
		env("01", "response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"make test\"}","call_id":"c1"}`),
		env("02", "response_item", `{"type":"function_call_output","call_id":"c1","output":"Chunk ID: 1\nWall time: 1.0 seconds\nProcess exited with code 3\nOriginal token count: 5\nOutput:\nFAIL\n"}`),
		env("03", "response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"npm run dev\"}","call_id":"c2"}`),
		env("04", "response_item", `{"type":"function_call_output","call_id":"c2","output":"Process running with session ID 7\n\nOutput:\nready"}`),
		env("05", "response_item", `{"type":"local_shell_call","call_id":"c3","status":"completed","action":{"type":"exec","command":["bash","-lc","ls -a"]}}`),
		env("06", "response_item", `{"type":"function_call_output","call_id":"c3","output":"{\"output\":\".\\n..\\n\",\"metadata\":{\"exit_code\":0}}"}`),
		env("07", "response_item", `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"git\",\"commit\",\"-m\",\"it's done\"]}","call_id":"c4"}`),
	)
	type cmd struct {
		typ  core.EventType
		cmd  string
		text string
		exit int
	}
	var got []cmd
	for _, e := range ps.Events {
		if e.Type.Class() == core.ClassOther {
			continue
		}
		c := cmd{typ: e.Type, cmd: e.Command, text: e.Text, exit: -1}
		if e.ExitCode != nil {
			c.exit = *e.ExitCode
		}
		got = append(got, c)
	}
	want := []cmd{
		{core.TypeCommandStart, "make test", "make test", -1},
		{core.TypeCommandOutput, "make test", "FAIL\n", -1},
		{core.TypeCommandFinish, "make test", "exit code 3", 3},
		{core.TypeCommandStart, "npm run dev", "npm run dev", -1},
		{core.TypeCommandOutput, "npm run dev", "ready", -1},
		{core.TypeCommandStart, "ls -a", "ls -a", -1},
		{core.TypeCommandOutput, "ls -a", ".\n..\n", -1},
		{core.TypeCommandFinish, "ls -a", "exit code 0", 0},
		{core.TypeCommandStart, `git commit -m 'it'\''s done'`, `git commit -m 'it'\''s done'`, -1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands\n got %+v\nwant %+v", got, want)
	}
}

func TestPatchForms(t *testing.T) {
	heredoc := `apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\nEOF`
	ps := parseLines(t,
		metaLine,
		env("01", "response_item", `{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"`+strings.ReplaceAll(heredoc, `\n`, `\\n`)+`\"}","call_id":"p1"}`),
		env("02", "response_item", `{"type":"function_call_output","call_id":"p1","output":"Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nD old.txt\n"}`),
		env("03", "response_item", `{"type":"function_call","name":"apply_patch","arguments":"{\"input\":\"*** Begin Patch\\n*** Update File: a.go\\n*** Move to: b.go\\n@@\\n-x\\n+y\\n*** Add File: c.go\\n+package c\\n+\\n*** End Patch\"}","call_id":"p2"}`),
	)
	var files []core.FileTouch
	for _, e := range ps.Events {
		if e.Type == core.TypeToolCall {
			if e.Tool != "apply_patch" {
				t.Errorf("tool %q", e.Tool)
			}
			files = append(files, e.Files...)
		}
	}
	want := []core.FileTouch{
		{Path: "old.txt", Op: "delete"},
		{Path: "a.go", Op: "move", MovedTo: "b.go", Patch: "@@\n-x\n+y"},
		{Path: "c.go", Op: "create", Patch: "+package c\n+", NewText: "package c\n\n"},
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("files\n got %+v\nwant %+v", files, want)
	}
}

func TestMCP(t *testing.T) {
	ps := parseLines(t,
		metaLine,
		env("01", "response_item", `{"type":"function_call","name":"mcp__github__create_issue","arguments":"{\"title\":\"bug\"}","call_id":"m1"}`),
		env("02", "event_msg", `{"type":"mcp_tool_call_end","call_id":"m1","invocation":{"server":"github","tool":"create_issue","arguments":{"title":"bug"}},"result":{"Ok":{"content":[]}}}`),
		env("03", "response_item", `{"type":"function_call_output","call_id":"m1","output":[{"type":"input_text","text":"issue #4"}]}`),
		env("04", "response_item", `{"type":"function_call","name":"search","namespace":"mcp__docs","arguments":"{}","call_id":"m2"}`),
		env("05", "event_msg", `{"type":"mcp_tool_call_begin","call_id":"m3","invocation":{"server":"db","tool":"query","arguments":{"sql":"select 1"}}}`),
		env("06", "event_msg", `{"type":"mcp_tool_call_end","call_id":"m3","invocation":{"server":"db","tool":"query","arguments":{"sql":"select 1"}},"result":{"Err":"denied"}}`),
		env("07", "response_item", `{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[]}","call_id":"t1"}`),
	)
	type call struct {
		typ                        core.EventType
		text                       string
		server, tool, args, result string
		isErr                      bool
	}
	var got []call
	for _, e := range ps.Events {
		if e.Type.Class() == core.ClassOther && e.Native != "mcp_tool_call_end" {
			continue
		}
		c := call{typ: e.Type, text: e.Text, isErr: e.IsError}
		if e.Activity != nil {
			inv := e.Activity.Invocation
			if inv.Protocol != "mcp" || inv.ProviderCallID != e.CallID {
				t.Errorf("invocation %+v of %s", inv, e.CallID)
			}
			c.server, c.tool, c.args, c.result = inv.Server, inv.Tool, inv.Arguments, inv.Result
		}
		got = append(got, c)
	}
	want := []call{
		{core.TypeToolCall, "title: bug", "github", "create_issue", "captured", "captured", false},
		{core.TypeOther, got[1].text, "", "", "", "", false}, // the twin: no second invocation
		{core.TypeToolOutput, "issue #4", "github", "create_issue", "captured", "captured", false},
		{core.TypeToolCall, "", "docs", "search", "captured", "pending", false},
		{core.TypeToolCall, "sql: select 1", "db", "query", "captured", "captured", false},
		{core.TypeToolOutput, "denied", "db", "query", "captured", "captured", true},
		{core.TypeToolCall, "plan: []", "", "", "", "", false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mcp events\n got %+v\nwant %+v", got, want)
	}
}

func TestBookkeeping(t *testing.T) {
	big := strings.Repeat("é", 2000)
	ps := parseLines(t,
		metaLine,
		env("01", "response_item", `{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>"}]}`),
		env("02", "turn_context", `{"cwd":"/w","model":"gpt-5.2-codex","effort":"high","summary":"auto"}`),
		env("03", "event_msg", `{"type":"token_count","info":{"total_token_usage":{"total_tokens":900},"last_token_usage":{"total_tokens":90},"model_context_window":1000}}`),
		env("04", "event_msg", `{"type":"turn_aborted","reason":"interrupted"}`),
		env("05", "compacted", `{"message":"we fixed the parser","replacement_history":[]}`),
		env("06", "event_msg", `{"type":"context_compacted"}`),
		env("07", "response_item", `{"type":"compaction","encrypted_content":"gAAA"}`),
		env("08", "world_state", `{"blob":"`+big+`"}`),
		env("09", "response_item", `{"type":"ghost_snapshot","ghost_commit":{"id":"abc"}}`),
		env("10", "response_item", `{"type":"reasoning","summary":[{"type":"summary_text","text":"**Plan**"}],"encrypted_content":"x"}`),
	)
	want := []string{"other/session_meta", "other/injected_context", "other/turn_context", "other/token_count",
		"other/turn_aborted", "summary/compacted", "compaction/context_compacted", "compaction/compaction",
		"other/world_state", "other/ghost_snapshot", "reasoning/assistant"}
	if got := summary(ps); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	ev := ps.Events
	if ev[3].Text != "tokens total=900 last=90 window=1000" || ev[4].Text != "turn aborted: interrupted" ||
		ev[5].Text != "we fixed the parser" || ev[9].Text != "ghost snapshot abc" {
		t.Errorf("texts %q %q %q %q", ev[3].Text, ev[4].Text, ev[5].Text, ev[9].Text)
	}
	if n := len(ev[8].Text); n > maxOther+len("…") || n < maxOther/2 {
		t.Errorf("world_state text is %d bytes, want about %d", n, maxOther)
	}
	if ps.Session.Model != "gpt-5.2-codex" || ev[10].Model != "gpt-5.2-codex" || ev[10].Text != "**Plan**" {
		t.Errorf("model %q / %q, reasoning %q", ps.Session.Model, ev[10].Model, ev[10].Text)
	}
}

func TestLegacyKeysAndTimes(t *testing.T) {
	ps := parseLines(t,
		`{"id":"11111111-2222-3333-4444-555555555555","timestamp":"2025-08-01T10:00:00Z","instructions":null}`,
		`{"record_type":"state"}`,
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`,
		`{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls\"]}","call_id":"c1"}`,
	)
	want := []string{"oth:2025-08-01T10:00:00Z#0", "", "", "c1"}
	var keys []string
	for _, e := range ps.Events {
		keys = append(keys, e.Key)
		if e.Timestamp.Format("2006-01-02T15:04:05Z07:00") != "2025-08-01T10:00:00Z" {
			t.Errorf("event %d at %v, want the meta timestamp", e.Ordinal, e.Timestamp)
		}
	}
	if !reflect.DeepEqual(keys, want) || ps.Session.NativeID != "11111111-2222-3333-4444-555555555555" {
		t.Errorf("keys %q native %q", keys, ps.Session.NativeID)
	}
	if ps.Events[1].ID != core.NewEventID(ps.Session.ID, "#1") {
		t.Errorf("legacy event without a key is not keyed by its ordinal")
	}
}

func TestNativeIDFromFileName(t *testing.T) {
	res := parseBytes(t, []byte(userLine("2025-12-15T11:00:00Z", "x")+"\n"),
		"sessions/2025/12/15/rollout-2025-12-15T12-00-35-019b21ab-55b8-7932-8d73-e85426fd3cad.jsonl")
	if got := res.Sessions[0].Session.NativeID; got != "019b21ab-55b8-7932-8d73-e85426fd3cad" {
		t.Errorf("native id %q", got)
	}
}

func TestMCPEventTwinInResponseItemFile(t *testing.T) {
	ps := parseLines(t,
		metaLine,
		userLine("2025-12-15T11:00:01Z", "list issues"),
		env("02", "event_msg", `{"type":"mcp_tool_call_end","call_id":"m9","invocation":{"server":"github","tool":"list"},"result":{"Ok":{"content":[]}}}`),
		env("03", "response_item", `{"type":"function_call","name":"mcp__github__list","arguments":"{}","call_id":"m9"}`),
		env("04", "response_item", `{"type":"function_call_output","call_id":"m9","output":"[]"}`),
	)
	want := []string{"other/session_meta", "message/user", "other/mcp_tool_call_end", "tool_call/mcp__github__list",
		"tool_output/mcp__github__list"}
	if got := summary(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	for _, e := range ps.Events {
		if (e.Activity != nil) != (e.Type == core.TypeToolCall || e.Type == core.TypeToolOutput) {
			t.Errorf("%s %s activity %v", e.Type, e.Native, e.Activity)
		}
	}
}
