package gemini

import (
	"encoding/json"
	"reflect"
	"testing"

	"ctx/core"
)

func TestShellExit(t *testing.T) {
	tests := []struct {
		name, text string
		isErr      bool
		exit       int // -1: unknown
		background bool
	}{
		{"non-zero", "Output: boom\nExit Code: 1\nProcess Group PGID: 20528", false, 1, false},
		{"zero by omission", "Output: CREATE SCHEMA\nProcess Group PGID: 28516", false, 0, false},
		{"empty output", "Output: (empty)\nProcess Group PGID: 29584", false, 0, false},
		{"2025 form", "Command: ls\nDirectory: (root)\nStdout: a\nStderr: (empty)\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7", false, 0, false},
		{"2025 no exit", "Command: x\nStdout: (empty)\nError: (none)\nExit Code: (none)\nSignal: 15", false, -1, false},
		{"signal", "Output: x\nSignal: 9\nProcess Group PGID: 3", false, -1, false},
		{"spawn error", "Output: (empty)\nError: spawn ENOENT\nProcess Group PGID: 3", false, -1, false},
		{"wrapped", "<untrusted_context>\nOutput: x\nExit Code: 2\n</untrusted_context>", false, 2, false},
		{"exit text in output", "Output: Exit Code: 5\nok\nProcess Group PGID: 3", false, 0, false},
		{"cancelled", "Command was cancelled by user before it could complete. There was no output before it was cancelled.", false, -1, false},
		{"denied", "[Operation Cancelled] Reason: User denied execution.", true, -1, false},
		{"background", "Command moved to background (PID: 42). Output hidden. Press Ctrl+B to view.", false, -1, true},
		{"empty", "", false, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exit, bg := shellExit(tt.text, tt.isErr)
			got := -1
			if exit != nil {
				got = *exit
			}
			if got != tt.exit || bg != tt.background {
				t.Errorf("exit %d background %v, want %d %v", got, bg, tt.exit, tt.background)
			}
		})
	}
}

func TestMCPInvocation(t *testing.T) {
	tests := []struct {
		name, display, args, server, tool string
	}{
		{"mcp_postgresql_execute_sql", "execute_sql (postgresql MCP Server)", `{}`, "postgresql", "execute_sql"},
		{"mcp_my_srv_do_it", "do_it (my_srv MCP Server)", `{}`, "my_srv", "do_it"},
		{"mcp_github_create_issue", "", `{"a":1}`, "github", "create_issue"},
		{"mcp_x", "", `{}`, "", ""},
		{"read_file", "ReadFile", `{}`, "", ""},
		{"weird", " (s MCP Server)", `{}`, "", ""},
	}
	for _, tt := range tests {
		inv, ok := mcpInvocation(&toolCall{ID: "c1", Name: tt.name, DisplayName: tt.display, Args: json.RawMessage(tt.args)})
		if ok != (tt.server != "") || inv.Server != tt.server || inv.Tool != tt.tool {
			t.Errorf("%s / %q: %q %q %v", tt.name, tt.display, inv.Server, inv.Tool, ok)
		}
		if ok && (inv.Protocol != "mcp" || inv.ProviderCallID != "c1" || inv.Arguments != core.CaptureCaptured) {
			t.Errorf("%s: invocation %+v", tt.name, inv)
		}
	}
	inv, _ := mcpInvocation(&toolCall{Name: "mcp_a_b"})
	if inv.Arguments != core.CaptureAbsent {
		t.Errorf("no args: %q", inv.Arguments)
	}
}

func TestFileTouches(t *testing.T) {
	abs := `{"filePath":"/w/src/a.go","isNewFile":false}`
	tests := []struct {
		name, tool, args, status, display, output string
		want                                      []core.FileTouch
	}{
		{"replace", "replace", `{"file_path":"/w/a.go","old_string":"x","new_string":"y"}`, "success", "", "",
			[]core.FileTouch{{Path: "/w/a.go", Op: core.OpEdit, OldText: "x", NewText: "y"}}},
		{"replace relative", "replace", `{"file_path":"src/a.go","old_string":"x","new_string":"y"}`, "success", abs, "",
			[]core.FileTouch{{Path: "/w/src/a.go", Op: core.OpEdit, OldText: "x", NewText: "y"}}},
		{"replace creates", "replace", `{"file_path":"/w/n.go","old_string":"","new_string":"package n"}`, "success", "", "",
			[]core.FileTouch{{Path: "/w/n.go", Op: core.OpCreate, NewText: "package n"}}},
		{"edit without strings", "edit", `{"file_path":"/w/a.go"}`, "success", "", "",
			[]core.FileTouch{{Path: "/w/a.go", Op: core.OpEdit}}},
		{"write", "write_file", `{"file_path":"/w/a.go","content":"c"}`, "success", "", "Successfully overwrote file: /w/a.go.",
			[]core.FileTouch{{Path: "/w/a.go", Op: core.OpWrite, NewText: "c"}}},
		{"write new by text", "write_file", `{"file_path":"/w/a.go","content":"c"}`, "success", "", createdPrefix + ": /w/a.go.",
			[]core.FileTouch{{Path: "/w/a.go", Op: core.OpCreate, NewText: "c"}}},
		{"write new by display", "write_file", `{"file_path":"a.go","content":"c"}`, "success", `{"filePath":"C:\\w\\a.go","isNewFile":true}`, "",
			[]core.FileTouch{{Path: `C:\w\a.go`, Op: core.OpCreate, NewText: "c"}}},
		{"cancelled edit", "replace", `{"file_path":"/w/a.go","old_string":"x","new_string":"y"}`, "cancelled", "", "", nil},
		{"failed write", "write_file", `{"file_path":"/w/a.go","content":"c"}`, "error", "", "", nil},
		{"read 2025", "read_file", `{"absolute_path":"/w/a.go"}`, "success", "", "", []core.FileTouch{{Path: "/w/a.go", Op: core.OpRead}}},
		{"cancelled read", "read_file", `{"file_path":"a.go"}`, "cancelled", "", "", []core.FileTouch{{Path: "a.go", Op: core.OpRead}}},
		{"no path", "write_file", `{"content":"c"}`, "success", "", "", nil},
		{"other tool", "glob", `{"pattern":"*.go","path":"/w"}`, "success", "", "", nil},
		{"bad args", "replace", `{"file_path":7,"old_string":"x"}`, "success", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := &toolCall{Name: tt.tool, Args: json.RawMessage(tt.args), Status: tt.status,
				ResultDisplay: json.RawMessage(tt.display)}
			c := &call{tc: tc, result: result{text: tt.output, present: true},
				failed: tt.status == "error" || tt.status == "cancelled"}
			_ = json.Unmarshal(tc.Args, &c.args)
			if got := fileTouches(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestIsAbs(t *testing.T) {
	for p, want := range map[string]bool{"/a": true, `C:\a`: true, "c:/a": true, `\\host\share`: true,
		"a/b": false, `.gemini\settings.json`: false, "": false, "C:": false, "1:/a": false} {
		if isAbs(p) != want {
			t.Errorf("isAbs(%q) = %v", p, !want)
		}
	}
}

func TestArgsText(t *testing.T) {
	tests := []struct{ name, args, want string }{
		{"t", `{"b":"two words","a":[1, 2],"c":{"d":null}}`, "b: two words\na: [1,2]\nc: {\"d\":null}"},
		{"t", `{}`, "t"},
		{"t", `null`, "t"},
		{"t", ``, "t"},
		{"t", `"s"`, "s"},
		{"t", `[1, 2]`, "[1,2]"},
	}
	for _, tt := range tests {
		if got := argsText(tt.name, json.RawMessage(tt.args)); got != tt.want {
			t.Errorf("argsText(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestReadResult(t *testing.T) {
	tests := []struct {
		raw, text      string
		isErr, present bool
	}{
		{`[{"functionResponse":{"id":"a","name":"x","response":{"output":"ok"}}}]`, "ok", false, true},
		{`[{"functionResponse":{"id":"a","name":"x","response":{"error":"bad"}}}]`, "bad", true, true},
		{`[{"functionResponse":{"id":"a","name":"x","response":{}}}]`, "", false, true},
		{`[{"functionResponse":{"response":{"llmContent":"v"}}},{"inlineData":{"mimeType":"image/png","data":"AA"}}]`,
			"{\"llmContent\":\"v\"}\n[inline data image/png]", false, true},
		{`"plain"`, "plain", false, true},
		{`null`, "", false, false},
		{``, "", false, false},
	}
	for _, tt := range tests {
		r := readResult(json.RawMessage(tt.raw))
		if r.text != tt.text || r.isErr != tt.isErr || r.present != tt.present {
			t.Errorf("readResult(%s) = %+v", tt.raw, r)
		}
	}
}
