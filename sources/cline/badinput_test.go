package cline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
)

const goodAPI = `[{"role":"user","content":[{"type":"text","text":"<task>\nrename foo\n</task>"}],"ts":1700000000000},
{"role":"assistant","content":[{"type":"text","text":"Renaming."}],"ts":1700000001000}]`

const goodUI = `[{"ts":1700000000000,"type":"say","say":"task","text":"rename foo"}]`

// A task file caught mid-rewrite (truncated, or empty after the truncate
// and before the write) is a counted problem naming that file, and the
// task yields no session, so the previous import is kept.
func TestMidRewrite(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		bad   string
		code  string
	}{
		{"api truncated", map[string]string{APIFile: goodAPI[:70], UIFile: goodUI}, APIFile, core.ProblemInvalidJSON},
		{"api empty", map[string]string{APIFile: ""}, APIFile, core.ProblemEmptyFile},
		{"ui truncated", map[string]string{APIFile: goodAPI, UIFile: goodUI[:30]}, UIFile, core.ProblemInvalidJSON},
		{"ui empty", map[string]string{APIFile: goodAPI, UIFile: " \n"}, UIFile, core.ProblemEmptyFile},
		{"history item truncated", map[string]string{APIFile: goodAPI, HistoryItemFile: `{"id":"1`}, HistoryItemFile, core.ProblemInvalidJSON},
		{"metadata truncated", map[string]string{APIFile: goodAPI, MetadataFile: `{"files_in_context":[`}, MetadataFile, core.ProblemInvalidJSON},
		{"ui-only truncated", map[string]string{UIFile: goodUI[:40]}, UIFile, core.ProblemInvalidJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "1700000000000")
			for name, data := range tt.files {
				writeFile(t, filepath.Join(dir, name), data)
			}
			src := APIFile
			if _, ok := tt.files[APIFile]; !ok {
				src = UIFile
			}
			res, err := NewCline().Parse(core.SourceFile{Provider: ProviderCline, Path: filepath.Join(dir, src)})
			if err != nil {
				t.Fatal(err)
			}
			want := []core.Problem{{Code: tt.code, Provider: ProviderCline, Path: filepath.Join(dir, tt.bad)}}
			if len(res.Sessions) != 0 || !reflect.DeepEqual(res.Problems, want) {
				t.Errorf("sessions %d problems %v, want none and %v", len(res.Sessions), res.Problems, want)
			}
			// The complete files parse again.
			writeFile(t, filepath.Join(dir, tt.bad), map[string]string{APIFile: goodAPI, UIFile: goodUI,
				HistoryItemFile: `{"id":"1700000000000"}`, MetadataFile: `{}`}[tt.bad])
			res, _ = NewCline().Parse(core.SourceFile{Provider: ProviderCline, Path: filepath.Join(dir, src)})
			if len(res.Sessions) != 1 || len(res.Problems) != 0 {
				t.Errorf("after the rewrite: %d sessions, problems %v", len(res.Sessions), res.Problems)
			}
		})
	}
}

// Bad records are counted with their 1-based index; every good record is
// kept.
func TestBadRecords(t *testing.T) {
	api := `[
 {"role":"user","content":[{"type":"text","text":"<task>\nfix it\n</task>"}],"ts":1},
 "not an object",
 {"role":"assistant","content":{"type":"text"},"ts":3},
 {"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"hologram"}],"ts":4},
 {"role":"critic","content":"meh","ts":5},
 {"role":"assistant","content":[{"type":"text","text":"done"}],"ts":"six"},
 {"role":"user","content":[{"type":"text","text":"thanks"}],"ts":7}
]`
	res := parseTask(t, Task{Primary: []byte(api)}, "/x/tasks/1/"+APIFile)
	var got []string
	for _, p := range res.Problems {
		got = append(got, p.Code+"@"+itoa(p.Line))
	}
	want := []string{"invalid_record@2", "invalid_record@3", "unknown_record@4", "unknown_record@5", "invalid_record@6"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("%d sessions", len(res.Sessions))
	}
	wantShape := []string{"message/user", "message/assistant", "other/system/block:hologram",
		"other/system/role:critic", "message/assistant", "message/user"}
	if got := shape(res.Sessions[0].Events); !reflect.DeepEqual(got, wantShape) {
		t.Errorf("events %q, want %q", got, wantShape)
	}
}

func TestBadUIRows(t *testing.T) {
	ui := `[{"ts":1,"type":"say","say":"task","text":"go"},
 {"ts":2,"type":"say","say":"hologram","text":"?"},
 {"ts":3,"type":"shout"},
 [1,2],
 {"ts":5,"type":"say","say":"text","text":"streaming answ","partial":true}]`
	res := parseTask(t, Task{Primary: []byte(ui), UIOnly: true}, "/x/tasks/1/"+UIFile)
	if got, want := codes(res.Problems), []string{"unknown_record", "unknown_record", "invalid_record"}; !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	wantShape := []string{"message/user", "other/system/say:hologram", "other/system/shout", "message/assistant"}
	if got := shape(res.Sessions[0].Events); !reflect.DeepEqual(got, wantShape) {
		t.Errorf("events %q, want %q", got, wantShape)
	}
}

func TestNotAnArray(t *testing.T) {
	res := parseTask(t, Task{Primary: []byte(`{"role":"user"}`)}, "/x/tasks/1/"+APIFile)
	if len(res.Sessions) != 0 || !reflect.DeepEqual(codes(res.Problems), []string{core.ProblemInvalidRecord}) {
		t.Errorf("sessions %d problems %v", len(res.Sessions), res.Problems)
	}
	res = parseTask(t, Task{Primary: []byte(`[]`)}, "/x/tasks/1/"+APIFile)
	if len(res.Sessions)+len(res.Problems) != 0 {
		t.Errorf("empty history: %d sessions, problems %v", len(res.Sessions), res.Problems)
	}
}

// Growing the history keeps the ids of the events already imported: the
// real fixture cut after 20 messages parses to a prefix of the whole.
func TestStableKeysOnGrowth(t *testing.T) {
	path := filepath.Join(fixtureDir(t), "tasks", "1777073160794", APIFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(data, &msgs); err != nil {
		t.Fatal(err)
	}
	prefix, err := json.Marshal(msgs[:20])
	if err != nil {
		t.Fatal(err)
	}
	f := core.SourceFile{Provider: ProviderCline, Path: path}
	part := NewCline().ParseTask(Task{Primary: prefix}, f).Sessions[0]
	whole := NewCline().ParseTask(Task{Primary: data}, f).Sessions[0]
	if part.Session.ID != whole.Session.ID || len(part.Events) >= len(whole.Events) {
		t.Fatalf("sessions %s/%s events %d/%d", part.Session.ID, whole.Session.ID, len(part.Events), len(whole.Events))
	}
	for i, e := range part.Events {
		if w := whole.Events[i]; e.ID != w.ID || e.Text != w.Text {
			t.Fatalf("event %d changed on growth: %s %q vs %s %q", i, e.ID, e.Key, w.ID, w.Key)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(goodAPI))
	f.Add([]byte(goodUI))
	f.Add([]byte(`[{"role":"assistant","content":"<write_to_file><path>a</path><content>x</content></write_to_file>"},` +
		`{"role":"user","content":[{"type":"text","text":"[write_to_file for 'a'] Result:\nThe user made the following updates to your content:\n\n@@ -1 +1 @@\n"}]}]`))
	f.Add([]byte(`[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"replace_in_file","input":{"path":"p","diff":"------- SEARCH\na\n=======\nb\n+++++++ REPLACE"}}]}]`))
	f.Add([]byte(`[{"ts":1,"type":"ask","ask":"command","text":"ls"},{"ts":2,"type":"ask","ask":"command_output","text":"a"},{"ts":3,"type":"say","say":"use_mcp_server","text":"{}"},{"ts":4,"type":"say","say":"mcp_server_response","text":"r","conversationHistoryDeletedRange":[1,2]}]`))
	if dir, err := findFixtures(); err == nil {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(path) == ".json" {
				if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
					f.Add(data)
				}
			}
			return nil
		})
	}
	p := NewRooCode()
	file := core.SourceFile{Provider: ProviderRooCode, Path: "/fuzz/tasks/1/" + APIFile}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, task := range []Task{{Primary: data}, {Primary: data, UIOnly: true},
			{Primary: []byte(goodAPI), UI: data, HistoryItem: data}} {
			res := p.ParseTask(task, file)
			for _, s := range res.Sessions {
				if s.Session.EventCount != len(s.Events) || s.Session.ID.IsZero() {
					t.Fatalf("session %+v not finalized", s.Session)
				}
			}
		}
	})
}
