package cline

import (
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

// The UI log adds what the API history lacks: reasoning (unless the
// message has its own) and context truncation, before message k+1.
func TestMergeUIIntoAPI(t *testing.T) {
	api := `[{"role":"user","content":[{"type":"text","text":"<task>\nadd a flag\n</task>"},{"type":"text","text":"<environment_details>\n# Current Working Directory (/home/u/proj) Files\nmain.go\n</environment_details>"}],"ts":1000},
{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"main.go"}}],"ts":2000,"modelInfo":{"modelId":"m1"}},
{"role":"user","content":[{"type":"text","text":"[read_file for 'main.go'] Result:\npackage main"}],"ts":3000},
{"role":"assistant","content":[{"type":"thinking","thinking":"own thoughts"},{"type":"text","text":"Done."}],"ts":4000}]`
	ui := `[{"ts":1000,"type":"say","say":"task","text":"add a flag","conversationHistoryIndex":-1},
{"ts":1500,"type":"say","say":"reasoning","text":"read main first","partial":false,"conversationHistoryIndex":0},
{"ts":3500,"type":"say","say":"reasoning","text":"duplicate of own thoughts","conversationHistoryIndex":2,"conversationHistoryDeletedRange":[1,2]},
{"ts":5000,"type":"say","say":"reasoning","text":"still thinking","conversationHistoryIndex":3}]`
	res := parseTask(t, Task{Primary: []byte(api), UI: []byte(ui)}, "/x/tasks/1000/"+APIFile)
	if len(res.Problems) != 0 || len(res.Sessions) != 1 {
		t.Fatalf("problems %v sessions %d", res.Problems, len(res.Sessions))
	}
	ps := res.Sessions[0]
	want := []string{"message/user", "other/system/injected_context", "reasoning/assistant", "message/assistant",
		"tool_call/assistant", "tool_output/tool", "compaction/system/conversation_history_deleted_range",
		"reasoning/assistant", "message/assistant", "reasoning/assistant"}
	if got := shape(ps.Events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events\n got %q\nwant %q", got, want)
	}
	if ps.Events[2].Text != "read main first" || ps.Events[7].Text != "own thoughts" || ps.Events[9].Text != "still thinking" {
		t.Errorf("reasoning %q %q %q", ps.Events[2].Text, ps.Events[7].Text, ps.Events[9].Text)
	}
	if ps.Events[2].Timestamp.UnixMilli() != 1500 || ps.Events[2].Key != "u1500" {
		t.Errorf("ui reasoning stamp %v key %q", ps.Events[2].Timestamp, ps.Events[2].Key)
	}
	if ps.Session.Workspace != "/home/u/proj" || ps.Session.Model != "m1" || ps.Session.Title != "add a flag" {
		t.Errorf("session %+v", ps.Session)
	}
}

// Versions before native tool calling wrote tools as XML in the text.
func TestXMLToolCalls(t *testing.T) {
	api := `[{"role":"user","content":[{"type":"text","text":"<task>\nfix the test\n</task>"}]},
{"role":"assistant","content":[{"type":"text","text":"<thinking>\nThe test fails.\n</thinking>\n\nI'll fix it.\n\n<replace_in_file>\n<path>src/a.go</path>\n<diff>\n<<<<<<< SEARCH\nreturn 1\n=======\nreturn 2\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>"}]},
{"role":"user","content":[{"type":"text","text":"[replace_in_file for 'src/a.go'] Result:\nThe content was successfully saved to src/a.go."},{"type":"text","text":"<environment_details>\n# Current Working Directory (/w) Files\n</environment_details>"}]},
{"role":"assistant","content":[{"type":"text","text":"<execute_command>\n<command>go test ./...</command>\n<requires_approval>false</requires_approval>\n</execute_command>"}]},
{"role":"user","content":[{"type":"text","text":"[execute_command for 'go test ./...'] Result:\nCommand executed.\nOutput:\nok  \tx\t0.1s"},{"type":"text","text":"thanks, ship it"}]}]`
	res := parseTask(t, Task{Primary: []byte(api)}, "/x/tasks/7/"+APIFile)
	ps := res.Sessions[0]
	want := []string{"message/user", "reasoning/assistant", "message/assistant", "tool_call/assistant",
		"tool_output/tool", "other/system/injected_context", "command_start/assistant", "command_output/tool",
		"command_finish/tool", "message/user"}
	if got := shape(ps.Events); !reflect.DeepEqual(got, want) || len(res.Problems) != 0 {
		t.Fatalf("events %q problems %v\nwant %q", got, res.Problems, want)
	}
	edit := ps.Events[3]
	wantFiles := []core.FileTouch{{Path: "src/a.go", Op: core.OpEdit, OldText: "return 1", NewText: "return 2"}}
	if edit.Tool != "replace_in_file" || !reflect.DeepEqual(edit.Files, wantFiles) {
		t.Errorf("edit %s %+v", edit.Tool, edit.Files)
	}
	if out := ps.Events[4]; out.Tool != "replace_in_file" || out.Key != edit.Key+"/output" {
		t.Errorf("edit output %s %q (call %q)", out.Tool, out.Key, edit.Key)
	}
	start, out, fin := ps.Events[6], ps.Events[7], ps.Events[8]
	if start.Command != "go test ./..." || out.Text != "ok  \tx\t0.1s" || fin.ExitCode != nil || fin.Text != "command finished" {
		t.Errorf("command %q output %q finish %+v", start.Command, out.Text, fin)
	}
	if ps.Events[9].Text != "thanks, ship it" {
		t.Errorf("plain prompt %q", ps.Events[9].Text)
	}
}

// Roo Code: tool_result blocks, apply_diff with :start_line:, exit codes
// as "Exit code: N", MCP calls, condensed summaries and child tasks.
func TestRooNative(t *testing.T) {
	api := `[{"role":"user","content":[{"type":"text","text":"<task>\nupdate config\n</task>"}],"ts":10},
{"role":"assistant","content":[
 {"type":"tool_use","id":"call_a","name":"apply_diff","input":{"path":"cfg.yaml","diff":"<<<<<<< SEARCH\n:start_line:3\n-------\nport: 80\n=======\nport: 8080\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\n:start_line:9\n-------\nhost: a\n=======\nhost: b\n>>>>>>> REPLACE"}},
 {"type":"tool_use","id":"call_b","name":"execute_command","input":{"command":"make check","cwd":"/w"}},
 {"type":"tool_use","id":"call_c","name":"use_mcp_tool","input":{"server_name":"github","tool_name":"create_issue","arguments":"{\"title\":\"x\"}"}}],"ts":20},
{"role":"user","content":[
 {"type":"tool_result","tool_use_id":"call_b","content":"Command executed in terminal  within working directory '/w'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 2\nOutput:\nmake: *** [check] Error 2"},
 {"type":"tool_result","tool_use_id":"call_a","content":[{"type":"text","text":"Changes applied to cfg.yaml"}]},
 {"type":"tool_result","tool_use_id":"call_c","content":[{"type":"text","text":"issue #5"}]}],"ts":30},
{"role":"assistant","content":"Earlier we changed the port.","isSummary":true,"ts":40}]`
	hist := `{"id":"99","parentTaskId":"50","rootTaskId":"10","task":"update config","workspace":"/w","mode":"code"}`
	p := NewRooCode()
	res := p.ParseTask(Task{Primary: []byte(api), HistoryItem: []byte(hist)}, core.SourceFile{Path: "/x/tasks/99/" + APIFile})
	ps := res.Sessions[0]
	s := ps.Session
	if s.Provider != ProviderRooCode || !s.IsSubagent || ps.ParentNativeID != "50" || ps.RootNativeID != "10" ||
		s.RootSessionID != core.NewSessionID(ProviderRooCode, "10") || s.Workspace != "/w" || s.AgentType != "code" {
		t.Errorf("session %+v parent %q root %q", s, ps.ParentNativeID, ps.RootNativeID)
	}
	want := []string{"message/user", "tool_call/assistant", "command_start/assistant", "tool_call/assistant",
		"command_output/tool", "command_finish/tool", "tool_output/tool", "tool_output/tool", "summary/system/condense_summary"}
	if got := shape(ps.Events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q\nwant %q", got, want)
	}
	wantEdits := []core.FileTouch{{Path: "cfg.yaml", Op: core.OpEdit, OldText: "port: 80", NewText: "port: 8080"},
		{Path: "cfg.yaml", Op: core.OpEdit, OldText: "host: a", NewText: "host: b"}}
	if !reflect.DeepEqual(ps.Events[1].Files, wantEdits) {
		t.Errorf("apply_diff files %+v", ps.Events[1].Files)
	}
	if fin := ps.Events[5]; fin.ExitCode == nil || *fin.ExitCode != 2 || !fin.IsError || ps.Events[4].Text != "make: *** [check] Error 2" {
		t.Errorf("finish %+v output %q", fin, ps.Events[4].Text)
	}
	call, out := ps.Events[3], ps.Events[7]
	wantCall := core.Invocation{Protocol: "mcp", Server: "github", Tool: "create_issue", ProviderCallID: "call_c",
		Arguments: core.CaptureCaptured, Result: core.CaptureCaptured}
	if call.Activity == nil || call.Activity.Invocation != wantCall || out.Activity == nil ||
		out.Activity.Invocation != wantCall || out.Text != "issue #5" {
		t.Errorf("mcp call %+v output %+v %q", call.Activity, out.Activity, out.Text)
	}
}

// A UI-only task: file tool rows, commands with streamed output, MCP rows.
func TestUIOnlyTools(t *testing.T) {
	ui := `[{"ts":1,"type":"say","say":"task","text":"do it"},
{"ts":2,"type":"say","say":"tool","text":"{\"tool\":\"newFileCreated\",\"path\":\"a.txt\",\"content\":\"hello\\n\"}"},
{"ts":3,"type":"ask","ask":"tool","text":"{\"tool\":\"editedExistingFile\",\"path\":\"b.txt\",\"diff\":\"------- SEARCH\\nx\\n=======\\ny\\n+++++++ REPLACE\"}"},
{"ts":4,"type":"ask","ask":"command","text":"ls","commandCompleted":true},
{"ts":5,"type":"ask","ask":"command_output","text":""},
{"ts":6,"type":"ask","ask":"command_output","text":"a.txt"},
{"ts":7,"type":"say","say":"command_output","text":"b.txt"},
{"ts":8,"type":"say","say":"use_mcp_server","text":"{\"type\":\"use_mcp_tool\",\"serverName\":\"s\",\"toolName\":\"t\",\"arguments\":\"{}\"}"},
{"ts":9,"type":"say","say":"mcp_server_response","text":"result"},
{"ts":10,"type":"ask","ask":"followup","text":"{\"question\":\"Which branch?\",\"options\":[\"main\"]}"},
{"ts":11,"type":"say","say":"completion_result","text":"All set.HAS_CHANGES"}]`
	res := parseTask(t, Task{Primary: []byte(ui), UIOnly: true}, "/x/tasks/1/"+UIFile)
	ps := res.Sessions[0]
	want := []string{"message/user", "tool_call/assistant", "tool_call/assistant", "command_start/assistant",
		"command_output/tool", "tool_call/assistant", "tool_output/tool", "message/assistant", "message/assistant"}
	if got := shape(ps.Events); !reflect.DeepEqual(got, want) || len(res.Problems) != 0 {
		t.Fatalf("events %q problems %v\nwant %q", got, res.Problems, want)
	}
	if f := ps.Events[1].Files; len(f) != 1 || f[0] != (core.FileTouch{Path: "a.txt", Op: core.OpCreate, NewText: "hello\n"}) {
		t.Errorf("create %+v", f)
	}
	if f := ps.Events[2].Files; len(f) != 1 || f[0] != (core.FileTouch{Path: "b.txt", Op: core.OpEdit, OldText: "x", NewText: "y"}) {
		t.Errorf("edit %+v", f)
	}
	if out := ps.Events[4]; out.Text != "a.txt\nb.txt" || out.Command != "ls" || out.Key != "u5" {
		t.Errorf("output %q %q %q", out.Text, out.Command, out.Key)
	}
	if a := ps.Events[6].Activity; a == nil || a.Invocation.Server != "s" || ps.Events[5].Activity.Invocation.Result != core.CaptureCaptured {
		t.Errorf("mcp %+v", a)
	}
	if ps.Events[7].Text != "Which branch?" || ps.Events[8].Text != "All set." {
		t.Errorf("answers %q %q", ps.Events[7].Text, ps.Events[8].Text)
	}
}

func TestSearchReplace(t *testing.T) {
	tests := []struct {
		name, diff string
		want       [][2]string
	}{
		{"cline", "------- SEARCH\na\nb\n=======\nc\n+++++++ REPLACE\n", [][2]string{{"a\nb", "c"}}},
		{"legacy", "<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE", [][2]string{{"a", ""}}},
		{"roo", "<<<<<<< SEARCH\n:start_line:4\n:end_line:4\n-------\na\n=======\nb\n>>>>>>> REPLACE", [][2]string{{"a", "b"}}},
		{"two", "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE", [][2]string{{"a", "b"}, {"c", "d"}}},
		{"crlf", "------- SEARCH\r\na\r\n=======\r\nb\r\n+++++++ REPLACE\r\n", [][2]string{{"a", "b"}}},
		{"unterminated", "------- SEARCH\na\n=======\nb", nil},
		{"unified diff", "@@ -1 +1 @@\n-a\n+b", nil},
	}
	for _, tt := range tests {
		if got := searchReplace(tt.diff); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := diffEdits("p", "@@ -1 +1 @@\n-a\n+b"); len(got) != 1 || got[0].Op != core.OpPatch {
		t.Errorf("unified diff kept as %+v", got)
	}
}

func TestParseCommandResult(t *testing.T) {
	tests := []struct {
		body, out string
		exit      int // -1: none
		done      bool
	}{
		{"Command executed successfully (exit code 0).\nOutput:\nok", "ok", 0, true},
		{"Command failed with exit code 127.\nOutput:\nnot found", "not found", 127, true},
		{"Command executed.\nOutput:\nx", "x", -1, true},
		{"Command executed in terminal  within working directory '/w'. Exit code: 0\nOutput:\n", "", 0, true},
		{"Command is still running in the user's terminal.\nHere's the output so far:\nwait", "Command is still running in the user's terminal.\nHere's the output so far:\nwait", -1, false},
		{"The user denied this operation.", "The user denied this operation.", -1, false},
	}
	for _, tt := range tests {
		r := parseCommandResult(tt.body)
		exit := -1
		if r.exit != nil {
			exit = *r.exit
		}
		if r.output != tt.out || exit != tt.exit || r.done != tt.done {
			t.Errorf("%.30q: %q %d %v, want %q %d %v", tt.body, r.output, exit, r.done, tt.out, tt.exit, tt.done)
		}
	}
}

func TestTextHelpers(t *testing.T) {
	if name, body, ok := resultHeader("[execute_command for 'echo '\"a\"'\nb'] Result:\nout"); !ok || name != "execute_command" || body != "out" {
		t.Errorf("multi-line header: %q %q %v", name, body, ok)
	}
	if _, _, ok := resultHeader("[ERROR] You did not use a tool"); ok {
		t.Error("error note taken for a result")
	}
	if got := tagged("x <feedback>\n a \n</feedback> y <answer>b</answer> <task>"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("tagged %q", got)
	}
	if fb, ok := feedback("The user denied this operation and provided the following feedback:\n<feedback>\nno\n</feedback>"); !ok || fb != "no" {
		t.Errorf("feedback %q %v", fb, ok)
	}
	if got := cwdFrom("# Current Workspace Directory (/a (b)) Files\nx"); got != "/a (b)" {
		t.Errorf("cwd %q", got)
	}
	for _, s := range []string{"[TASK RESUMPTION] x", "<environment_details>", "\n# TODO", "(no message)", "Files attached by the user:\n"} {
		if !isContext(s) {
			t.Errorf("%q not context", s)
		}
	}
}

func TestSegments(t *testing.T) {
	segs := segments("Intro <b>bold</b>\n<read_file>\n<path>a.go</path>\n</read_file>\n<write_to_file><path>x.html</path><content><p>hi</p></content></write_to_file> tail <read_file>unclosed")
	if len(segs) != 4 || segs[1].kind != segTool || segs[1].name != "read_file" || segs[2].params[1].value != "<p>hi</p>" ||
		!strings.HasPrefix(segs[3].text, " tail <read_file>") {
		t.Errorf("segments %+v", segs)
	}
}

// Older histories have no ts: events take the task's creation time from
// its id (epoch ms) until a timestamped record.
func TestTaskIDTime(t *testing.T) {
	api := `[{"role":"user","content":"<task>\nhi\n</task>"},{"role":"assistant","content":"hello","ts":1700000005000}]`
	ps := parseTask(t, Task{Primary: []byte(api)}, "/x/tasks/1700000000000/"+APIFile).Sessions[0]
	if got := ps.Events[0].Timestamp.UnixMilli(); got != 1700000000000 {
		t.Errorf("first event at %d", got)
	}
	if got := ps.Events[1].Timestamp.UnixMilli(); got != 1700000005000 || ps.Events[0].Key != "i0/0/p0" || ps.Events[1].Key != "m1700000005000/0" {
		t.Errorf("second event at %d, keys %q %q", got, ps.Events[0].Key, ps.Events[1].Key)
	}
}

func TestToolFiles(t *testing.T) {
	tests := []struct {
		name string
		args toolArgs
		want []core.FileTouch
	}{
		{"read_file", toolArgs{Path: "a"}, []core.FileTouch{{Path: "a", Op: core.OpRead}}},
		{"read_file", toolArgs{Files: []byte(`[{"path":"a","line_ranges":[[1,2]]},{"path":"b"}]`)},
			[]core.FileTouch{{Path: "a", Op: core.OpRead}, {Path: "b", Op: core.OpRead}}},
		{"read_file", toolArgs{Args: []byte(`"<file><path>a</path></file><file><path>b</path></file>"`)},
			[]core.FileTouch{{Path: "a", Op: core.OpRead}, {Path: "b", Op: core.OpRead}}},
		{"write_to_file", toolArgs{AbsolutePath: "/abs", Path: "rel", Content: "x"},
			[]core.FileTouch{{Path: "/abs", Op: core.OpWrite, NewText: "x"}}},
		{"search_and_replace", toolArgs{Path: "a", Search: "s", Replace: "r"},
			[]core.FileTouch{{Path: "a", Op: core.OpEdit, OldText: "s", NewText: "r"}}},
		{"insert_content", toolArgs{Path: "a", Content: "c"}, []core.FileTouch{{Path: "a", Op: core.OpEdit, NewText: "c"}}},
		{"apply_patch", toolArgs{Input: "*** Begin Patch\n*** Delete File: d\n*** End Patch"}, []core.FileTouch{{Path: "d", Op: core.OpDelete}}},
		{"write_to_file", toolArgs{Content: "no path"}, nil},
		{"list_files", toolArgs{Path: "src"}, nil},
	}
	for _, tt := range tests {
		if got := toolFiles(tt.name, &tt.args); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %+v: %+v, want %+v", tt.name, tt.args, got, tt.want)
		}
	}
}
