package cursor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

const (
	globalComposer = "75551d8c-e91c-461d-a120-c2097f755ba4"
	chatTabID      = "2aa483d1-573c-4039-ae4e-7415e28d2605"
	oldComposer    = "090e988a-b2e3-4fcc-84e0-62a9401ae6ea"
)

func ms(n int64) time.Time { return time.UnixMilli(n).UTC() }

// TestGlobalFixture checks facts read by hand from the 2026 composer and
// its 14 exported bubble rows (of 99 headers).
func TestGlobalFixture(t *testing.T) {
	g, _ := fixtureDBs(t)
	if st, err := os.Stat(g.Path + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("the rows should still be in the -wal: %v", err)
	}
	res := parseFile(t, g)
	if got := problemCodes(res); len(got) != 1 || got[ProblemMissingBubble] != 85 {
		t.Errorf("problems %v, want 85 missing_bubble (99 headers, 14 rows)", got)
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(res.Sessions))
	}
	s := sessionByNative(t, res, globalComposer)
	want := core.Session{Title: "Code error resolution", Workspace: "/home/voz/codes/training/java/src",
		GitBranch: "main", Model: "composer-2.5", Started: ms(1783397624574), Ended: ms(1783398307759)}
	got := s.Session
	if got.Title != want.Title || got.Workspace != want.Workspace || got.GitBranch != want.GitBranch ||
		got.Model != want.Model || !got.Started.Equal(want.Started) || !got.Ended.Equal(want.Ended) {
		t.Errorf("session %+v, want %+v", got, want)
	}
	if got.IsSubagent || got.RootSessionID != got.ID {
		t.Errorf("a top-level composer should be its own root")
	}
	counts := map[core.EventType]int{}
	for _, e := range s.Events {
		counts[e.Type]++
		if e.Key == "" || e.Timestamp.IsZero() || e.Timestamp.Location() != time.UTC {
			t.Errorf("event %d (%s): key %q time %v", e.Ordinal, e.Type, e.Key, e.Timestamp)
		}
	}
	wantCounts := map[core.EventType]int{core.TypeMessage: 3, core.TypeReasoning: 2, core.TypeToolCall: 7,
		core.TypeToolOutput: 7, core.TypeCommandStart: 2, core.TypeCommandOutput: 2, core.TypeCommandFinish: 2}
	for typ, n := range wantCounts {
		if counts[typ] != n {
			t.Errorf("%d %s events, want %d", counts[typ], typ, n)
		}
	}
	first := s.Events[0]
	if first.Role != core.RoleUser || first.Text != "fix the errors and made no changes in the actual codes but make it work" ||
		first.Key != "d8f748f9-5f83-449a-aa39-4ad7ce9156e0" || !first.Timestamp.Equal(time.Date(2026, 7, 7, 4, 13, 44, 885e6, time.UTC)) {
		t.Errorf("first event %+v", first)
	}
	checkReasoning(t, s)
	checkCommands(t, s)
	checkReads(t, s)
	checkEdit(t, s)
}

func checkReasoning(t *testing.T, s core.ParsedSession) {
	t.Helper()
	r := ofType(s, core.TypeReasoning)
	if len(r) != 2 || r[0].Text != "This is a Maven Java project." || r[0].Key != "febe405f-5bd1-4965-bdf9-840e1ea44ec5/thinking" {
		t.Errorf("reasoning %+v", r)
	}
}

func checkCommands(t *testing.T, s core.ParsedSession) {
	t.Helper()
	starts, outs, fins := ofType(s, core.TypeCommandStart), ofType(s, core.TypeCommandOutput), ofType(s, core.TypeCommandFinish)
	mvn := "cd /home/voz/codes/training/java && ./mvnw compile 2>&1"
	if len(starts) != 2 || starts[1].Command != mvn || starts[1].CallID != "tool_0e9ac03f-6bdd-44ea-a764-8012b7da5b6" ||
		starts[1].Tool != "run_terminal_command_v2" || !strings.HasPrefix(starts[0].Command, "cd /home/voz/codes/training/java && find . -maxdepth 3") {
		t.Fatalf("command starts %+v", starts)
	}
	if outs[0].Text != "./pom.xml\n" || !strings.Contains(outs[1].Text, "[INFO] BUILD SUCCESS") || outs[1].Command != mvn {
		t.Errorf("command outputs %q / %q", outs[0].Text, outs[1].Text)
	}
	for _, f := range fins {
		// The 2026 sample records no exit code (result has output, rejected,
		// notInterrupted only): none is invented.
		if f.ExitCode != nil || f.IsError || f.Text != "command completed" || f.CallID == "" {
			t.Errorf("command finish %+v", f)
		}
	}
}

func checkReads(t *testing.T, s core.ParsedSession) {
	t.Helper()
	var reads []string
	for _, e := range ofType(s, core.TypeToolCall) {
		for _, f := range e.Files {
			if f.Op == core.OpRead {
				reads = append(reads, f.Path)
			}
		}
	}
	want := "/home/voz/codes/training/java/pom.xml,/home/voz/codes/training/java/.idea/misc.xml,/home/voz/codes/training/java/.idea/compiler.xml"
	if strings.Join(reads, ",") != want {
		t.Errorf("reads %v", reads)
	}
	for _, e := range ofType(s, core.TypeToolOutput) {
		if e.Tool == "read_file_v2" && e.CallID == "tool_4c0ffd65-28ac-4bb3-877a-b2089d83ed9" &&
			!strings.Contains(e.Text, "<artifactId>spring-boot-starter-parent</artifactId>") {
			t.Errorf("read output should be the file contents, got %.80q", e.Text)
		}
	}
}

// checkEdit checks the first edit_file_v2 (header 44): pom.xml created from
// the empty file, its 50 lines rebuilt from the precomputed diff.
func checkEdit(t *testing.T, s core.ParsedSession) {
	t.Helper()
	var edit *core.Event
	for i, e := range s.Events {
		if e.Tool == "edit_file_v2" && e.Type == core.TypeToolCall {
			edit = &s.Events[i]
		}
	}
	if edit == nil || len(edit.Files) != 1 || edit.CallID != "tool_e93ac7db-daab-42df-9dc9-7145c76ac46" {
		t.Fatalf("edit call %+v", edit)
	}
	f := edit.Files[0]
	if f.Path != "/home/voz/codes/training/java/src/pom.xml" || f.Op != core.OpCreate || f.OldText != "" {
		t.Errorf("edit file %s %s", f.Op, f.Path)
	}
	lines := strings.Split(f.NewText, "\n")
	if len(lines) != 50 || lines[0] != `<?xml version="1.0" encoding="UTF-8"?>` || lines[5] != "" ||
		lines[35] != "        <sourceDirectory>main/java</sourceDirectory>" || lines[49] != "</project>" {
		t.Errorf("new text has %d lines: %q…", len(lines), lines[0])
	}
	if !strings.HasPrefix(f.Patch, "--- /home/voz/codes/training/java/src/pom.xml\n+++ /home/voz/codes/training/java/src/pom.xml\n@@ -1,1 +1,50 @@\n+<?xml") ||
		!strings.Contains(f.Patch, "\n+    <modelVersion>4.0.0</modelVersion>\n \n+    <parent>\n") {
		t.Errorf("patch %.200q", f.Patch)
	}
}

// TestWorkspaceFixture checks facts read by hand from the 2024 workspace
// values: one chat tab (of 5), one composer (of 26) and the prompt history.
func TestWorkspaceFixture(t *testing.T) {
	_, w := fixtureDBs(t)
	res := parseFile(t, w)
	if len(res.Problems) != 0 {
		t.Errorf("problems %v", res.Problems)
	}
	if len(res.Sessions) != 3 {
		t.Fatalf("%d sessions, want chat tab, composer and prompt history", len(res.Sessions))
	}
	tab := sessionByNative(t, res, chatTabID)
	var users, ais int
	for _, e := range ofType(tab, core.TypeMessage) {
		switch {
		case e.Role == core.RoleUser:
			users++
		case e.Role == core.RoleAssistant && e.Model == "claude-3.5-sonnet":
			ais++
		}
	}
	// 17 user bubbles, the last an empty input box; 16 answers.
	if users != 16 || ais != 16 || len(tab.Events) != 32 {
		t.Errorf("tab: %d user, %d assistant of %d events", users, ais, len(tab.Events))
	}
	ts := ms(1731818231743)
	if tab.Session.Title != "Ionic App Sidebar Customization Guide" || tab.Session.Model != "claude-3.5-sonnet" ||
		!tab.Session.Started.Equal(ts) || !tab.Session.Ended.Equal(ts) {
		t.Errorf("tab session %+v", tab.Session)
	}
	if e := tab.Events[0]; !strings.HasPrefix(e.Text, "We are building an ionic app for android\n") || e.Key != "9e6ead39-c15e-4b82-b142-a533883a2f46" {
		t.Errorf("first prompt %.60q key %s", e.Text, e.Key)
	}
	checkOldComposer(t, sessionByNative(t, res, oldComposer))
	checkPrompts(t, sessionByNative(t, res, "prompts:"+filepath.Base(filepath.Dir(w.Path))))
}

func checkOldComposer(t *testing.T, s core.ParsedSession) {
	t.Helper()
	if len(s.Events) != 2 || !s.Session.Started.Equal(ms(1731784818255)) {
		t.Fatalf("composer: %d events, started %v", len(s.Events), s.Session.Started)
	}
	if e := s.Events[0]; e.Role != core.RoleUser || !strings.HasPrefix(e.Text, "add the following elements to the sidebar:") {
		t.Errorf("composer prompt %.60q", e.Text)
	}
	a := s.Events[1]
	if a.Role != core.RoleAssistant || len(a.Files) != 2 || a.Key != "615db983-baa2-4d43-833d-bd8f251dca41" {
		t.Fatalf("composer answer %+v", a)
	}
	jsx := a.Files[0]
	if jsx.Path != `c:\Users\ydebray\Documents\mobilechat\components\Sidebar\Sidebar.jsx` || jsx.Op != core.OpEdit ||
		!strings.HasPrefix(jsx.NewText, "import React from 'react';\nimport { Link } from 'react-router-dom';") {
		t.Errorf("code block file %s %s %.40q", jsx.Op, jsx.Path, jsx.NewText)
	}
	if css := a.Files[1]; !strings.HasSuffix(css.Path, `Sidebar\Sidebar.css`) || !strings.HasPrefix(css.NewText, ".sidebar {\n  width: 280px;") {
		t.Errorf("code block file %s %.40q", css.Path, css.NewText)
	}
}

func checkPrompts(t *testing.T, s core.ParsedSession) {
	t.Helper()
	// 66 prompts, 35 distinct: repeated texts get distinct, stable ids.
	if len(s.Events) != 66 || s.Session.Title != "Prompt history" {
		t.Fatalf("prompt history: %d events", len(s.Events))
	}
	if e := s.Events[4]; e.Text != "ion footer is not a known element" || e.Type != core.TypeOther || e.Native != keyPrompts || e.Role != core.RoleUser {
		t.Errorf("prompt 5 %+v", e)
	}
}

// TestExportMatchesDatabase parses the global row export directly and
// checks it gives the same sessions and event ids as the database.
func TestExportMatchesDatabase(t *testing.T) {
	g, _ := fixtureDBs(t)
	fromDB := parseFile(t, g)
	path := filepath.Join(fixtureDir(t), "globalStorage-2026", "cursorDiskKV.rows.jsonl")
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	fromExport, err := ParseExport(fh, core.SourceFile{Provider: ProviderID, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if len(fromExport.Sessions) != 1 || len(fromExport.Problems) != len(fromDB.Problems) {
		t.Fatalf("export: %d sessions, %d problems", len(fromExport.Sessions), len(fromExport.Problems))
	}
	a, b := fromDB.Sessions[0], fromExport.Sessions[0]
	if a.Session.ID != b.Session.ID || len(a.Events) != len(b.Events) {
		t.Fatalf("sessions differ")
	}
	for i := range a.Events {
		if a.Events[i].ID != b.Events[i].ID || a.Events[i].Text != b.Events[i].Text {
			t.Errorf("event %d differs", i)
		}
	}
}

// TestWorkspaceJSON names the workspace folder of a workspace database.
func TestWorkspaceJSON(t *testing.T) {
	_, w := fixtureDBs(t)
	ws := filepath.Join(filepath.Dir(w.Path), "workspace.json")
	if err := os.WriteFile(ws, []byte(`{"folder":"file:///c%3A/Users/ydebray/Documents/mobilechat"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range parseFile(t, w).Sessions {
		if s.Session.Workspace != "c:/Users/ydebray/Documents/mobilechat" {
			t.Errorf("session %s workspace %q", s.Session.NativeID, s.Session.Workspace)
		}
	}
}
