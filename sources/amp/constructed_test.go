package amp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"ctx/core"
)

const toolThread = `{"v":9,"id":"T-abc","created":1760000000000,
"env":{"initial":{"trees":[{"uri":"file:///home/u/my%20app","repository":{"ref":"refs/heads/feature/x"}}],"tags":["model:tag-model"]}},
"relationships":[{"threadID":"T-parent","type":"handoff","role":"parent"}],
"messages":[
{"role":"user","messageId":0,"content":[{"type":"text","text":"fix the retry loop\nin client.go"}],"meta":{"sentAt":1760000001000}},
{"role":"assistant","messageId":1,"content":[
 {"type":"tool_use","id":"tu_1","name":"Bash","input":{"cmd":"go test ./...","cwd":"/home/u/my app"}},
 {"type":"tool_use","id":"tu_2","name":"edit_file","input":{"path":"/home/u/my app/client.go","old_str":"i <= max","new_str":"i < max"}},
 {"type":"tool_use","id":"tu_3","name":"create_file","input":{"path":"/home/u/my app/NOTES.md","content":"# notes\n"}},
 {"type":"tool_use","id":"tu_4","name":"mcp__github__create_issue","input":{"title":"retry"}},
 {"type":"tool_use","id":"tu_5","name":"Bash","input":{"cmd":"sleep 100"}},
 {"type":"tool_use","id":"tu_6","name":"Read","input":{"path":"/home/u/my app/go.mod"}}],
 "usage":{"model":"claude-opus-4-6","timestamp":"2025-10-09T09:00:05Z"}},
{"role":"user","messageId":2,"content":[
 {"type":"tool_result","toolUseID":"tu_1","run":{"status":"done","result":{"output":"--- FAIL: TestRetry","exitCode":1}}},
 {"type":"tool_result","toolUseID":"tu_2","run":{"status":"done","result":{"diff":"@@ -1 +1 @@\n-i <= max\n+i < max"}}},
 {"type":"tool_result","toolUseID":"tu_3","run":{"status":"rejected-by-user"}},
 {"type":"tool_result","toolUseID":"tu_4","run":{"status":"done","result":[{"type":"text","text":"issue #7"}]}},
 {"type":"tool_result","toolUseID":"tu_5","run":{"status":"in-progress","progress":{"output":"zz"}}},
 {"type":"tool_result","toolUseID":"tu_6","run":{"status":"error","error":{"message":"file not found"}}}]},
{"role":"info","messageId":3,"content":[{"type":"summary","summary":{"type":"message","summary":"We fixed the loop."}}]}
]}`

func TestToolThread(t *testing.T) {
	res := parse(toolThread)
	if len(res.Problems) != 0 || len(res.Sessions) != 1 {
		t.Fatalf("problems %v sessions %d", res.Problems, len(res.Sessions))
	}
	ps := res.Sessions[0]
	s := ps.Session
	if s.NativeID != "T-abc" || s.Workspace != "/home/u/my app" || s.GitBranch != "feature/x" ||
		s.Model != "claude-opus-4-6" || s.Title != "fix the retry loop" || s.IsSubagent {
		t.Errorf("session %+v", s)
	}
	checkShape(t, ps, []string{"other/system/relationship", "message/user",
		"command_start/assistant", "tool_call/assistant", "tool_call/assistant", "tool_call/assistant",
		"command_start/assistant", "tool_call/assistant",
		"command_output/tool", "command_finish/tool", "tool_output/tool", "tool_output/tool", "tool_output/tool",
		"command_output/tool", "tool_output/tool", "summary/system/summary"})
	ev := ps.Events
	if ev[2].Command != "go test ./..." || ev[8].Text != "--- FAIL: TestRetry" || ev[9].ExitCode == nil ||
		*ev[9].ExitCode != 1 || !ev[9].IsError || ev[9].Key != "tu_1/finish" {
		t.Errorf("command %+v / %+v / %+v", ev[2], ev[8], ev[9])
	}
	wantEdit := []core.FileTouch{{Path: "/home/u/my app/client.go", Op: core.OpEdit, OldText: "i <= max", NewText: "i < max"}}
	wantCreate := []core.FileTouch{{Path: "/home/u/my app/NOTES.md", Op: core.OpCreate, NewText: "# notes\n"}}
	if !reflect.DeepEqual(ev[3].Files, wantEdit) || !reflect.DeepEqual(ev[4].Files, wantCreate) ||
		ev[7].Files[0] != (core.FileTouch{Path: "/home/u/my app/go.mod", Op: core.OpRead}) {
		t.Errorf("files %+v %+v %+v", ev[3].Files, ev[4].Files, ev[7].Files)
	}
	if ev[10].Text != "@@ -1 +1 @@\n-i <= max\n+i < max" || ev[11].Text != "rejected-by-user" {
		t.Errorf("edit result %q, create result %q", ev[10].Text, ev[11].Text)
	}
	wantMCP := core.Invocation{Protocol: "mcp", Server: "github", Tool: "create_issue", ProviderCallID: "tu_4",
		Arguments: core.CaptureCaptured, Result: core.CaptureCaptured}
	if ev[5].Activity == nil || ev[5].Activity.Invocation != wantMCP || ev[12].Activity == nil ||
		ev[12].Activity.Invocation != wantMCP || ev[12].Text != "issue #7" {
		t.Errorf("mcp call %+v result %+v %q", ev[5].Activity, ev[12].Activity, ev[12].Text)
	}
	// A command still running when the thread was saved has no finish.
	if ev[13].Text != "zz" {
		t.Errorf("running output %q", ev[13].Text)
	}
	if ev[14].Text != "file not found" || !ev[14].IsError || ev[15].Text != "We fixed the loop." {
		t.Errorf("error %+v summary %q", ev[14], ev[15].Text)
	}
	if ev[1].Timestamp.UnixMilli() != 1760000001000 || ev[2].Timestamp.Format("15:04:05") != "09:00:05" {
		t.Errorf("stamps %v %v", ev[1].Timestamp, ev[2].Timestamp)
	}
}

// Each save rewrites the whole thread: a thread with more messages keeps
// the ids of the events already imported.
func TestStableKeysOnGrowth(t *testing.T) {
	path := filepath.Join(fixtureDir(t), "threads", "T-1d0ef56c-0ecd-4bf7-af7b-5bc196dc8a6a.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var full map[string]json.RawMessage
	var msgs []json.RawMessage
	if json.Unmarshal(data, &full) != nil || json.Unmarshal(full["messages"], &msgs) != nil {
		t.Fatal("fixture is not a thread")
	}
	full["messages"], _ = json.Marshal(msgs[:2])
	short, _ := json.Marshal(full)
	f := core.SourceFile{Provider: ProviderAmp, Path: path}
	part, whole := ParseBytes(short, f).Sessions[0], ParseBytes(data, f).Sessions[0]
	if len(part.Events) != 6 || len(whole.Events) != 9 {
		t.Fatalf("events %d / %d", len(part.Events), len(whole.Events))
	}
	for i, e := range part.Events {
		if e.ID != whole.Events[i].ID {
			t.Errorf("event %d changed id on growth (%q)", i, e.Key)
		}
	}
}

func TestMidRewrite(t *testing.T) {
	for _, tt := range []struct{ name, data, code string }{
		{"truncated", toolThread[:200], core.ProblemInvalidJSON},
		{"empty", "", core.ProblemEmptyFile},
		{"not an object", `[{"role":"user"}]`, core.ProblemInvalidRecord},
	} {
		res := parse(tt.data)
		want := []core.Problem{{Code: tt.code, Provider: ProviderAmp, Path: "/x/threads/T-x.json"}}
		if len(res.Sessions) != 0 || !reflect.DeepEqual(res.Problems, want) {
			t.Errorf("%s: sessions %d problems %v", tt.name, len(res.Sessions), res.Problems)
		}
	}
}

func TestBadMessages(t *testing.T) {
	res := parse(`{"id":"T-bad","created":1,"messages":[
 {"role":"user","messageId":0,"content":[{"type":"text","text":"go"}]},
 7,
 {"role":"assistant","messageId":2,"content":[{"type":"hologram"},{"type":"text","text":"ok"}]},
 {"role":"narrator","messageId":3,"content":[{"type":"text","text":"meanwhile"}]},
 {"role":"assistant","messageId":"four","content":[{"type":"text","text":"still here"}]},
 {"role":"assistant","messageId":5,"content":{"type":"text"}}]}`)
	var got []string
	for _, p := range res.Problems {
		got = append(got, p.Code+"@"+strconv.Itoa(p.Line))
	}
	want := []string{"invalid_record@2", "unknown_record@3", "unknown_record@4", "invalid_record@5", "invalid_record@6"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	checkShape(t, res.Sessions[0], []string{"message/user", "other/system/block:hologram", "message/assistant",
		"other/system/role:narrator", "message/assistant"})
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(toolThread))
	f.Add([]byte(`{"id":"T-1","messages":[{"role":"user","content":"hi"},{"role":"info","content":[{"type":"summary","summary":"s"}]}]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"tool_result","toolUseID":"x","run":{"result":[1,{"type":"text"}]}}]}]}`))
	if dir, err := findFixtures(); err == nil {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(path) == ".json" {
				if data, err := os.ReadFile(path); err == nil {
					f.Add(data)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := ParseBytes(data, core.SourceFile{Provider: ProviderAmp, Path: "fuzz/T-f.json"})
		for _, s := range res.Sessions {
			if s.Session.EventCount != len(s.Events) || s.Session.ID.IsZero() {
				t.Fatalf("session %+v not finalized", s.Session)
			}
		}
	})
}
