package cursor

import (
	"encoding/json"
	"strings"
	"testing"

	"ctx/core"
)

// composerJSON returns a composerData value with headers for bubbles and
// extra fields (a JSON object body without braces, or "").
func composerJSON(id, extra string, bubbles ...string) string {
	var h []string
	for _, b := range bubbles {
		h = append(h, `{"bubbleId":"`+b+`","type":2}`)
	}
	s := `{"_v":16,"composerId":"` + id + `","name":"` + id + `","createdAt":1783397624574,` +
		`"fullConversationHeadersOnly":[` + strings.Join(h, ",") + `]`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func composerRow(id, extra string, bubbles ...string) row {
	return row{table: tableKV, key: prefixComposer + id, value: []byte(composerJSON(id, extra, bubbles...))}
}

func bubbleRow(composerID, bubbleID, body string) row {
	return row{table: tableKV, key: prefixBubble + composerID + ":" + bubbleID, value: []byte(body)}
}

// exportOf renders rows as a row export.
func exportOf(t testing.TB, rows []row) string {
	t.Helper()
	var b strings.Builder
	for _, r := range rows {
		line, err := json.Marshal(map[string]any{"table": r.table, "key": r.key, "value": string(r.value)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func parseRows(t testing.TB, rows []row) core.ParseResult {
	t.Helper()
	res, err := ParseExport(strings.NewReader(exportOf(t, rows)), core.SourceFile{Provider: ProviderID, Path: "ws/state.vscdb"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const userBubble = `{"_v":3,"type":1,"text":"hi","createdAt":"2026-07-07T04:13:44.885Z"}`

func TestSubagentLinks(t *testing.T) {
	rows := []row{
		composerRow("parent", `"subagentComposerIds":["child"]`, "u"),
		composerRow("child", `"subagentComposerIds":["grandchild"]`, "u"),
		composerRow("grandchild", "", "u"),
		composerRow("named", `"subagentInfo":{"parentComposerId":"parent","subagentTypeName":"explore"}`, "u"),
		composerRow("loop-a", `"subagentComposerIds":["loop-b"]`, "u"),
		composerRow("loop-b", `"subagentComposerIds":["loop-a"]`, "u"),
	}
	for _, id := range []string{"parent", "child", "grandchild", "named", "loop-a", "loop-b"} {
		rows = append(rows, bubbleRow(id, "u", userBubble))
	}
	res := parseRows(t, rows)
	tests := []struct{ id, parent, root, agentType string }{
		{"parent", "", "", ""},
		{"child", "parent", "parent", ""},
		{"grandchild", "child", "parent", ""},
		{"named", "parent", "parent", "explore"},
		{"loop-a", "loop-b", "loop-a", ""},
		{"loop-b", "loop-a", "loop-b", ""},
	}
	for _, tt := range tests {
		s := sessionByNative(t, res, tt.id)
		if s.ParentNativeID != tt.parent || s.RootNativeID != tt.root || s.Session.AgentType != tt.agentType ||
			s.Session.IsSubagent != (tt.parent != "") {
			t.Errorf("%s: parent %q root %q type %q subagent %v", tt.id, s.ParentNativeID, s.RootNativeID,
				s.Session.AgentType, s.Session.IsSubagent)
		}
		if tt.root != "" && s.Session.RootSessionID != core.NewSessionID(ProviderID, tt.root) {
			t.Errorf("%s: root session id is not %s's", tt.id, tt.root)
		}
	}
}

// toolBubble is an assistant bubble with toolFormerData.
func toolBubble(tf string) string {
	return `{"_v":3,"type":2,"createdAt":"2026-07-07T04:14:00Z","toolFormerData":` + tf + `}`
}

// toolRows is one composer (in workspace /w) whose bubbles cover the tool
// shapes: keyed by bubble id.
func toolRows() []row {
	bubbles := []struct{ id, body string }{
		{"exit", toolBubble(`{"toolCallId":"c1","name":"run_terminal_command_v2","tool":15,"status":"completed",
			"params":{"command":"make test","cwd":""},"result":"{\"output\":\"FAIL\\n\",\"exitCode\":2}",
			"additionalData":{"status":"error"}}`)},
		{"reject", toolBubble(`{"toolCallId":"c2","name":"run_terminal_command_v2","status":"completed",
			"params":"{\"command\":\"rm -rf /\"}","result":"{\"output\":\"\",\"rejected\":true}",
			"additionalData":{"status":"rejected"}}`)},
		{"running", toolBubble(`{"toolCallId":"c3","name":"run_terminal_command_v2","status":"loading",
			"params":"{\"command\":\"sleep 9\"}"}`)},
		{"readerr", toolBubble(`{"toolCallId":"c4","name":"read_file_v2","status":"error",
			"params":"{\"targetFile\":\"/w/missing.go\"}","error":{"clientVisibleErrorMessage":"File not found"}}`)},
		{"edit", toolBubble(`{"toolCallId":"c5","name":"edit_file_v2","status":"completed",
			"params":"{\"relativeWorkspacePath\":\"main.go\"}",
			"result":"{\"beforeContentId\":\"composer.content.before\",\"afterContentId\":\"composer.content.after\"}",
			"additionalData":{"precomputedDiff":{"lines":[
				{"type":"unchanged","content":"a","originalLineNumber":1,"modifiedLineNumber":1},
				{"type":"removed","content":"b","originalLineNumber":2},
				{"type":"added","content":"B","modifiedLineNumber":2},
				{"type":"unchanged","content":"y","originalLineNumber":9,"modifiedLineNumber":9},
				{"type":"added","content":"z","modifiedLineNumber":10}]}}}`)},
		{"replace", toolBubble(`{"toolCallId":"c6","name":"search_replace","status":"completed",
			"params":"{\"file_path\":\"pkg/x.go\",\"old_string\":\"old()\",\"new_string\":\"new()\"}","result":"{}"}`)},
		{"write", toolBubble(`{"toolCallId":"c7","name":"write","status":"completed",
			"params":"{\"file_path\":\"/w/new.txt\",\"contents\":\"hello\\n\"}","result":"{}"}`)},
		{"delete", toolBubble(`{"toolCallId":"c8","name":"delete_file","status":"completed",
			"params":"{\"targetFile\":\"/w/old.txt\"}","result":"{}"}`)},
		{"mcp", toolBubble(`{"toolCallId":"c9","name":"mcp_github_create_issue","tool":19,"status":"completed",
			"params":"{\"tools\":[{\"name\":\"create_issue\",\"serverName\":\"github\",\"parameters\":\"{\\\"title\\\":\\\"Bug\\\"}\"}]}",
			"result":"{\"content\":[{\"type\":\"text\",\"text\":\"#12\"}]}"}`)},
		{"mcpwait", toolBubble(`{"toolCallId":"c10","name":"mcp_docs_search","status":"loading","rawArgs":"{\"q\":\"x\"}"}`)},
	}
	var ids []string
	var rows []row
	for _, b := range bubbles {
		ids = append(ids, b.id)
		rows = append(rows, bubbleRow("tools", b.id, b.body))
	}
	rows = append(rows, composerRow("tools", `"trackedGitRepos":[{"repoPath":"/w","branches":[{"branchName":"old","lastInteractionAt":1},{"branchName":"dev","lastInteractionAt":2}]}]`, ids...),
		row{table: tableKV, key: "composer.content.before", value: []byte("a\nb\n")},
		row{table: tableKV, key: "composer.content.after", value: []byte("a\nB\n")})
	return rows
}

func eventsByKey(s core.ParsedSession) map[string]core.Event {
	out := map[string]core.Event{}
	for _, e := range s.Events {
		out[e.Key] = e
	}
	return out
}

func TestToolShapes(t *testing.T) {
	res := parseRows(t, toolRows())
	if len(res.Problems) != 0 {
		t.Errorf("problems %v", res.Problems)
	}
	s := sessionByNative(t, res, "tools")
	if s.Session.Workspace != "/w" || s.Session.GitBranch != "dev" {
		t.Errorf("workspace %q branch %q from trackedGitRepos", s.Session.Workspace, s.Session.GitBranch)
	}
	ev := eventsByKey(s)
	checkCommandShapes(t, ev)
	if e := ev["readerr/output"]; !e.IsError || e.Text != "File not found" || e.Type != core.TypeToolOutput {
		t.Errorf("failed read output %+v", e)
	}
	wantFiles := map[string]core.FileTouch{
		"edit/call":    {Path: "/w/main.go", Op: core.OpEdit, OldText: "a\nb\n", NewText: "a\nB\n"},
		"replace/call": {Path: "/w/pkg/x.go", Op: core.OpEdit, OldText: "old()", NewText: "new()"},
		"write/call":   {Path: "/w/new.txt", Op: core.OpWrite, NewText: "hello\n"},
		"delete/call":  {Path: "/w/old.txt", Op: core.OpDelete},
		"readerr/call": {Path: "/w/missing.go", Op: core.OpRead},
	}
	for k, want := range wantFiles {
		e := ev[k]
		if len(e.Files) != 1 {
			t.Errorf("%s: files %+v", k, e.Files)
			continue
		}
		got := e.Files[0]
		got.Patch = ""
		if got != want {
			t.Errorf("%s: file %+v, want %+v", k, got, want)
		}
	}
	wantPatch := "--- /w/main.go\n+++ /w/main.go\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -9,1 +9,2 @@\n y\n+z\n"
	if p := ev["edit/call"].Files[0].Patch; p != wantPatch {
		t.Errorf("patch\n%s\nwant\n%s", p, wantPatch)
	}
	checkMCP(t, ev)
}

func checkCommandShapes(t *testing.T, ev map[string]core.Event) {
	t.Helper()
	fin := ev["exit/finish"]
	if fin.ExitCode == nil || *fin.ExitCode != 2 || !fin.IsError || fin.Text != "exit code 2" || fin.Command != "make test" {
		t.Errorf("exit finish %+v", fin)
	}
	if out := ev["exit/output"]; out.Text != "FAIL\n" || out.Type != core.TypeCommandOutput {
		t.Errorf("exit output %+v", out)
	}
	if fin := ev["reject/finish"]; !fin.IsError || fin.Text != "command rejected" || fin.ExitCode != nil {
		t.Errorf("rejected finish %+v", fin)
	}
	if _, ok := ev["running/call"]; !ok {
		t.Error("running command has no start")
	}
	if _, ok := ev["running/finish"]; ok {
		t.Error("a running command has no finish yet")
	}
}

func checkMCP(t *testing.T, ev map[string]core.Event) {
	t.Helper()
	call, out := ev["mcp/call"], ev["mcp/output"]
	want := core.Invocation{Protocol: "mcp", Server: "github", Tool: "create_issue", ProviderCallID: "c9",
		Arguments: core.CaptureCaptured, Result: core.CaptureCaptured}
	if call.Activity == nil || call.Activity.Invocation != want || call.Text != "title: Bug" {
		t.Errorf("mcp call %+v", call)
	}
	if out.Activity == nil || out.Activity.Invocation != want || !strings.Contains(out.Text, "#12") {
		t.Errorf("mcp output %+v", out)
	}
	wait := ev["mcpwait/call"]
	if wait.Activity == nil || wait.Activity.Invocation.Server != "docs" || wait.Activity.Invocation.Tool != "search" ||
		wait.Activity.Invocation.Result != core.CapturePending || wait.Text != "q: x" {
		t.Errorf("pending mcp call %+v", wait)
	}
	if _, ok := ev["mcpwait/output"]; ok {
		t.Error("a pending mcp call has no output yet")
	}
}

// TestStableKeys checks that adding bubbles keeps the ids of earlier
// events, and that the order comes from the headers, not the keys.
func TestStableKeys(t *testing.T) {
	b1 := bubbleRow("c", "zz", userBubble)
	b2 := bubbleRow("c", "aa", `{"_v":3,"type":2,"text":"answer","thinking":{"text":"hmm"}}`)
	first := parseRows(t, []row{composerRow("c", "", "zz"), b1}).Sessions[0]
	second := parseRows(t, []row{composerRow("c", "", "zz", "aa"), b1, b2}).Sessions[0]
	if len(second.Events) != 3 || second.Events[0].ID != first.Events[0].ID || second.Events[0].Text != "hi" {
		t.Fatalf("events %+v", second.Events)
	}
	if second.Events[1].Type != core.TypeReasoning || second.Events[2].Text != "answer" {
		t.Errorf("assistant bubble gave %s, %s", second.Events[1].Type, second.Events[2].Type)
	}
}

// TestConversationMapAndDuplicates: a header's bubble may live in the
// composer's conversationMap instead of a row; a composer stored both in
// cursorDiskKV and in ItemTable is one session.
func TestConversationMapAndDuplicates(t *testing.T) {
	rows := []row{
		composerRow("c", `"conversationMap":{"m":{"_v":3,"type":2,"text":"from the map"}}`, "u", "m"),
		bubbleRow("c", "u", userBubble),
		{table: tableItems, key: keyComposers, value: []byte(`{"allComposers":[{"composerId":"c","conversation":[` + userBubble + `]}]}`)},
	}
	res := parseRows(t, rows)
	if len(res.Problems) != 0 || len(res.Sessions) != 1 {
		t.Fatalf("problems %v, %d sessions", res.Problems, len(res.Sessions))
	}
	if ev := res.Sessions[0].Events; len(ev) != 2 || ev[1].Text != "from the map" || ev[1].Key != "m" {
		t.Errorf("events %+v", ev)
	}
}
