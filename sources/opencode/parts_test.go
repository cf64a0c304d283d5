package opencode

import (
	"reflect"
	"testing"

	"ctx/core"
)

// oneMessage parses a session of one message (data) with the given parts.
func oneMessage(t *testing.T, data string, parts ...string) core.ParsedSession {
	t.Helper()
	rows := Rows{Sessions: []SessionRow{{ID: "ses_t", Directory: "/w"}},
		Messages: []MessageRow{{ID: "msg_1", SessionID: "ses_t", Data: []byte(data)}}}
	for i, p := range parts {
		rows.Parts = append(rows.Parts, PartRow{ID: "prt_" + string(rune('a'+i)), MessageID: "msg_1", Data: []byte(p)})
	}
	res := ParseRows(rows, core.SourceFile{Provider: ProviderID, Path: "t.db"})
	if len(res.Problems) != 0 {
		t.Fatalf("problems %v", res.Problems)
	}
	return res.Sessions[0]
}

func TestToolParts(t *testing.T) {
	tests := []struct {
		name  string
		part  string
		types []core.EventType
		check func(t *testing.T, ev []core.Event)
	}{
		{"bash failed", `{"type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{"command":"make"},"error":"aborted","time":{"start":1000,"end":2000}}}`,
			[]core.EventType{core.TypeCommandStart, core.TypeCommandOutput, core.TypeCommandFinish},
			func(t *testing.T, ev []core.Event) {
				if ev[1].Text != "aborted" || !ev[2].IsError || ev[2].ExitCode != nil || ev[2].Text != "command failed" {
					t.Errorf("%+v", ev)
				}
			}},
		{"bash running", `{"type":"tool","tool":"bash","callID":"c1","state":{"status":"running","input":{"command":"sleep 9"},"metadata":{"output":"z"},"time":{"start":1000}}}`,
			[]core.EventType{core.TypeCommandStart}, nil},
		{"bash old metadata", `{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"ls"},"output":"","metadata":{"stdout":"a\n","stderr":"b","exit":0}}}`,
			[]core.EventType{core.TypeCommandStart, core.TypeCommandOutput, core.TypeCommandFinish},
			func(t *testing.T, ev []core.Event) {
				if ev[1].Text != "a\nb" || *ev[2].ExitCode != 0 || ev[2].IsError {
					t.Errorf("%+v", ev)
				}
			}},
		{"mcp", `{"type":"tool","tool":"context7_resolve-library-id","callID":"c2","state":{"status":"completed","input":{"libraryName":"react"},"output":"ok"}}`,
			[]core.EventType{core.TypeToolCall, core.TypeToolOutput},
			func(t *testing.T, ev []core.Event) {
				want := core.Invocation{Protocol: "mcp", Server: "context7", Tool: "resolve-library-id",
					ProviderCallID: "c2", Arguments: core.CaptureCaptured, Result: core.CaptureCaptured}
				if ev[0].Activity == nil || ev[0].Activity.Invocation != want || ev[1].Activity == nil || ev[0].Text != "libraryName: react" {
					t.Errorf("%+v", ev)
				}
			}},
		{"mcp pending", `{"type":"tool","tool":"gh_list_issues","callID":"c3","state":{"status":"pending","input":{}}}`,
			[]core.EventType{core.TypeToolCall},
			func(t *testing.T, ev []core.Event) {
				inv := ev[0].Activity.Invocation
				if inv.Arguments != core.CaptureAbsent || inv.Result != core.CapturePending {
					t.Errorf("%+v", inv)
				}
			}},
		{"builtin with underscore", `{"type":"tool","tool":"apply_patch","callID":"c","state":{"status":"pending","input":{}}}`,
			[]core.EventType{core.TypeToolCall},
			func(t *testing.T, ev []core.Event) {
				if ev[0].Activity != nil {
					t.Errorf("apply_patch taken as MCP")
				}
			}},
		{"failed edit touches nothing", `{"type":"tool","tool":"edit","callID":"c","state":{"status":"error","input":{"filePath":"/w/a","oldString":"x","newString":"y"},"error":"not found"}}`,
			[]core.EventType{core.TypeToolCall, core.TypeToolOutput},
			func(t *testing.T, ev []core.Event) {
				if len(ev[0].Files) != 0 || !ev[1].IsError || ev[1].Text != "not found" {
					t.Errorf("%+v", ev)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := oneMessage(t, asstMsg, tt.part)
			var types []core.EventType
			for _, e := range s.Events {
				types = append(types, e.Type)
			}
			if !reflect.DeepEqual(types, tt.types) {
				t.Fatalf("types %v, want %v", types, tt.types)
			}
			if tt.check != nil {
				tt.check(t, s.Events)
			}
		})
	}
}

func TestFileTouches(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: src/new.go\n+package x\n+\n*** Update File: old.go\n@@\n-a\n+b\n" +
		"*** Delete File: gone.txt\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-1\n+2\n*** End Patch"
	tests := []struct {
		name, tool, input, meta string
		want                    []core.FileTouch
	}{
		{"read", "read", `{"filePath":"/w/a.go"}`, ``, []core.FileTouch{{Path: "/w/a.go", Op: core.OpRead}}},
		{"edit relative", "edit", `{"filePath":"a.go","oldString":"x","newString":"y"}`, `{}`,
			[]core.FileTouch{{Path: "/cwd/a.go", Op: core.OpEdit, OldText: "x", NewText: "y"}}},
		{"write existing", "write", `{"filePath":"/w/a","content":"c"}`, `{"exists":true}`,
			[]core.FileTouch{{Path: "/w/a", Op: core.OpWrite, NewText: "c"}}},
		{"write unknown", "write", `{"filePath":"/w/a","content":"c"}`, ``,
			[]core.FileTouch{{Path: "/w/a", Op: core.OpWrite, NewText: "c"}}},
		{"multiedit", "multiedit", `{"filePath":"/w/a","edits":[{"oldString":"1","newString":"2"},{"filePath":"/w/b","oldString":"3","newString":"4"}]}`, ``,
			[]core.FileTouch{{Path: "/w/a", Op: core.OpEdit, OldText: "1", NewText: "2"}, {Path: "/w/b", Op: core.OpEdit, OldText: "3", NewText: "4"}}},
		{"apply_patch metadata", "apply_patch", `{"patchText":"ignored"}`,
			`{"files":[{"filePath":"/w/n","type":"add","patch":"P1"},{"filePath":"/w/o","type":"move","movePath":"/w/p","patch":"P2"},{"filePath":"/w/d","type":"delete","patch":"P3"}]}`,
			[]core.FileTouch{{Path: "/w/n", Op: core.OpCreate, Patch: "P1"}, {Path: "/w/o", Op: core.OpMove, Patch: "P2", MovedTo: "/w/p"},
				{Path: "/w/d", Op: core.OpDelete, Patch: "P3"}}},
		{"patch text", "patch", `{"patchText":` + quoteJSON(patch) + `}`, ``,
			[]core.FileTouch{{Path: "/cwd/src/new.go", Op: core.OpCreate, Patch: "+package x\n+", NewText: "package x\n\n"},
				{Path: "/cwd/old.go", Op: core.OpPatch, Patch: "@@\n-a\n+b"}, {Path: "/cwd/gone.txt", Op: core.OpDelete},
				{Path: "/cwd/a.txt", Op: core.OpMove, MovedTo: "/cwd/b.txt", Patch: "@@\n-1\n+2"}}},
		{"glob", "glob", `{"pattern":"*"}`, ``, nil},
		{"bad input", "edit", `"x"`, ``, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := touches(tt.tool, []byte(tt.input), []byte(tt.meta), "/cwd")
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func quoteJSON(s string) string {
	b := []byte{'"'}
	for _, c := range s {
		switch c {
		case '\n':
			b = append(b, '\\', 'n')
		case '"':
			b = append(b, '\\', '"')
		default:
			b = append(b, string(c)...)
		}
	}
	return string(append(b, '"'))
}

func TestOtherParts(t *testing.T) {
	s := oneMessage(t, `{"role":"user","time":{"created":5000}}`,
		`{"type":"text","text":"look at this"}`,
		`{"type":"file","mime":"text/plain","filename":"a.go","url":"file:///w/a.go","source":{"path":"/w/a.go"}}`,
		`{"type":"compaction","auto":true}`,
		`{"type":"agent","name":"explore"}`,
		`{"type":"subtask","agent":"general","description":"d","prompt":"p"}`,
		`{"type":"retry","attempt":2,"error":{"name":"APIError","data":{"message":"overloaded"}}}`,
		`{"type":"text","text":"  and this  ","time":{"start":7000}}`,
	)
	type ev struct {
		typ  core.EventType
		text string
	}
	var got []ev
	for _, e := range s.Events {
		got = append(got, ev{e.Type, e.Text})
	}
	want := []ev{{core.TypeMessage, "look at this\n\nand this"}, {core.TypeOther, "a.go"},
		{core.TypeCompaction, "compaction (automatic)"}, {core.TypeOther, "agent explore"},
		{core.TypeOther, "general: d\np"}, {core.TypeOther, "retry 2: APIError overloaded"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if f := s.Events[1].Files; len(f) != 1 || f[0] != (core.FileTouch{Path: "/w/a.go", Op: core.OpRead}) {
		t.Errorf("file part touches %v", f)
	}
	if !s.Events[5].IsError || s.Events[5].Timestamp.UnixMilli() != 5000 {
		t.Errorf("retry %+v", s.Events[5])
	}
}

func TestAssistantMessageKinds(t *testing.T) {
	s := oneMessage(t, `{"role":"assistant","mode":"compaction","summary":true,"modelID":"m","time":{"created":1,"completed":9},"error":{"name":"MessageAbortedError","data":{"message":"aborted"}}}`,
		`{"type":"text","text":"the summary"}`)
	if len(s.Events) != 2 || s.Events[0].Type != core.TypeSummary || s.Events[0].Text != "the summary" {
		t.Fatalf("events %+v", s.Events)
	}
	if e := s.Events[1]; e.Type != core.TypeOther || !e.IsError || e.Text != "MessageAbortedError: aborted" || e.Timestamp.UnixMilli() != 9 {
		t.Errorf("error event %+v", e)
	}
	u := oneMessage(t, `{"role":"user","time":{"created":1},"summary":{"title":"t","body":"what happened","diffs":[]}}`,
		`{"type":"text","text":"hi"}`)
	if len(u.Events) != 2 || u.Events[1].Type != core.TypeSummary || u.Events[1].Text != "what happened" {
		t.Errorf("user summary %+v", u.Events)
	}
}

func TestRenderInput(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":"two words","a":[1,2],"c":{"d":null}}`, "b: two words\na: [1,2]\nc: {\"d\":null}"},
		{`{}`, ""}, {`null`, ""}, {``, ""}, {`[1]`, "[1]"}, {`{"a":`, `{"a":`},
	}
	for _, tt := range tests {
		if got := renderInput([]byte(tt.in)); got != tt.want {
			t.Errorf("renderInput(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMCPName(t *testing.T) {
	tests := []struct{ name, server, tool string }{
		{"context7_get-library-docs", "context7", "get-library-docs"},
		{"my-server_a_b", "my-server", "a_b"},
		{"bash", "", ""}, {"apply_patch", "", ""}, {"plan_exit", "", ""}, {"_x", "", ""}, {"x_", "", ""},
		{"todowrite", "", ""},
	}
	for _, tt := range tests {
		server, tool, ok := mcpName(tt.name)
		if server != tt.server || tool != tt.tool || ok != (tt.server != "") {
			t.Errorf("mcpName(%q) = %q %q %v", tt.name, server, tool, ok)
		}
	}
}
