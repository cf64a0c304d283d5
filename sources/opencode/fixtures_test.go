package opencode

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

// dbFacts are facts read by hand from the row exports of the real database.
type dbFacts struct {
	id, title, started string
	prompts            []string // prefixes of the user prompts, in order
	answers            int      // assistant message events
	reasoning          int
	synthetic          int // synthetic user text parts (other events)
	commands           []string
	exits              []int // command finish exit codes, in order; -1 for none
	tools              map[string]int
	outputs            int // tool outputs (running parts have none)
	steps              int // step-start and step-finish other events
}

var dbSessions = []dbFacts{
	{
		id: "ses_12be9f828ffeaiYkWjPssYhKmB", title: "Greeting", started: "2026-06-17T06:28:52.494Z",
		tools: map[string]int{"edit": 2}, outputs: 2,
	},
	{
		id: "ses_1279fce82ffeZOJhNwml1w1Fu4", title: "Flask server for static portfolio PaaS deployment",
		started: "2026-06-18T01:37:23.382Z",
		prompts: []string{"I have a static HTML portfolio website. Help me add a simple Python Flask web server",
			"help me commit and push the code to github my accoun is richardaiand"},
		answers: 1, reasoning: 5, synthetic: 2,
		commands: []string{"ls", "pwd", "git status", "git config user.name && git config user.email", "gh auth status"},
		exits:    []int{-1, -1, 128, 1, 127},
		tools:    map[string]int{"write": 3, "glob": 1, "question": 1}, outputs: 4, steps: 9,
	},
	{
		id: "ses_1278e1f37ffelIDlCdpXIGV74U", title: "Commit and push portfolio to GitHub",
		started: "2026-06-18T01:56:42.392Z",
		prompts: []string{"i have a portfolio on this machine. help me commit", "can u create a new git repo"},
		answers: 3, reasoning: 10,
		commands: []string{"git status", "git log --oneline -5", "git remote -v",
			`find / -maxdepth 3 -type d -name ".git" 2>/dev/null`, `find /home -maxdepth 4 -type d -name ".git" 2>/dev/null`,
			`find /root -maxdepth 4 -type d -name ".git" 2>/dev/null`, "ls -la /home/",
			"find /home/build -maxdepth 3 -type d 2>/dev/null", "find /home/build -maxdepth 2 -type f | head -100",
			"ls -la /home/build/", "git init", `git add -A && git commit -m "Initial portfolio commit"`,
			`gh auth status 2>/dev/null || echo "gh not authenticated"`,
			`git config --global user.name "richardaiand" && git config --global user.email "richardaiand@users.noreply.github.com"`,
			`git add -A && git commit -m "Initial portfolio commit"`},
		exits: []int{128, 128, 128, 1, 0, 1, 0, 0, 0, 0, 0, 128, 0, 0},
		tools: map[string]int{"glob": 1, "write": 1}, outputs: 2, steps: 19,
	},
}

func TestDatabaseFixture(t *testing.T) {
	res := parseFile(t, New(), fixtureDB(t, t.TempDir()))
	if len(res.Problems) != 0 {
		t.Errorf("problems in the real database: %v", res.Problems)
	}
	var ids []string
	for _, s := range res.Sessions {
		ids = append(ids, s.Session.NativeID)
	}
	if want := []string{dbSessions[0].id, dbSessions[1].id, dbSessions[2].id}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("sessions %v, want %v (by creation time)", ids, want)
	}
	for _, fx := range dbSessions {
		t.Run(fx.id, func(t *testing.T) { checkDBSession(t, sessionByID(t, res, fx.id), fx) })
	}
}

func checkDBSession(t *testing.T, s core.ParsedSession, fx dbFacts) {
	t.Helper()
	ss := s.Session
	if ss.Title != fx.title || ss.Workspace != "/home/build" || ss.Model != "moonshotai/kimi-k2.6" {
		t.Errorf("title %q workspace %q model %q", ss.Title, ss.Workspace, ss.Model)
	}
	if ss.IsSubagent || ss.RootSessionID != ss.ID {
		t.Errorf("primary session is subagent=%v root=%v", ss.IsSubagent, ss.RootSessionID)
	}
	if got := ss.Started.Format(time.RFC3339Nano); got != fx.started {
		t.Errorf("started %s, want %s", got, fx.started)
	}
	var prompts []string
	answers, synthetic, steps := 0, 0, 0
	for _, e := range s.Events {
		switch {
		case e.Type == core.TypeMessage && e.Role == core.RoleUser:
			prompts = append(prompts, e.Text)
		case e.Type == core.TypeMessage && e.Role == core.RoleAssistant:
			answers++
			if e.Model != "moonshotai/kimi-k2.6" {
				t.Errorf("answer model %q", e.Model)
			}
		case e.Native == "synthetic_text":
			synthetic++
		case e.Native == "step-start" || e.Native == "step-finish":
			steps++
		}
	}
	if len(prompts) != len(fx.prompts) {
		t.Fatalf("prompts %q, want %d", prompts, len(fx.prompts))
	}
	for i, p := range prompts {
		if !strings.HasPrefix(p, fx.prompts[i]) {
			t.Errorf("prompt %d = %.60q, want prefix %q", i, p, fx.prompts[i])
		}
	}
	if answers != fx.answers || synthetic != fx.synthetic || steps != fx.steps {
		t.Errorf("answers %d synthetic %d steps %d, want %d %d %d", answers, synthetic, steps, fx.answers, fx.synthetic, fx.steps)
	}
	if n := len(eventsOf(s, core.TypeReasoning)); n != fx.reasoning {
		t.Errorf("reasoning %d, want %d", n, fx.reasoning)
	}
	checkCommands(t, s, fx)
	tools := map[string]int{}
	for _, e := range eventsOf(s, core.TypeToolCall) {
		tools[e.Tool]++
	}
	if !reflect.DeepEqual(tools, fx.tools) || len(eventsOf(s, core.TypeToolOutput)) != fx.outputs {
		t.Errorf("tool calls %v outputs %d, want %v %d", tools, len(eventsOf(s, core.TypeToolOutput)), fx.tools, fx.outputs)
	}
}

func checkCommands(t *testing.T, s core.ParsedSession, fx dbFacts) {
	t.Helper()
	var cmds []string
	for _, e := range eventsOf(s, core.TypeCommandStart) {
		cmds = append(cmds, e.Command)
	}
	if !reflect.DeepEqual(cmds, fx.commands) {
		t.Errorf("commands %q, want %q", cmds, fx.commands)
	}
	var exits []int
	for _, e := range eventsOf(s, core.TypeCommandFinish) {
		code := -1
		if e.ExitCode != nil {
			code = *e.ExitCode
		}
		exits = append(exits, code)
		if e.IsError != (code > 0) {
			t.Errorf("finish exit %d is_error %v", code, e.IsError)
		}
	}
	if !reflect.DeepEqual(exits, fx.exits) {
		t.Errorf("exits %v, want %v", exits, fx.exits)
	}
}

func TestDatabaseFixtureEdits(t *testing.T) {
	res := parseFile(t, New(), fixtureDB(t, t.TempDir()))
	calls := eventsOf(sessionByID(t, res, "ses_12be9f828ffeaiYkWjPssYhKmB"), core.TypeToolCall)
	if len(calls) != 2 {
		t.Fatalf("edit calls %d, want 2", len(calls))
	}
	want := []struct{ path, old, newPrefix, callID string }{
		{"/home/build/index.html", "<body>\n    <!-- Navigation -->",
			"<body>\n    <!-- Custom Crosshair Cursor -->\n    <div class=\"cursor-dot\"></div>", "functions.edit:17"},
		{"/home/build/styles.css", "/* ==================== */\n/* Scrollbar            */",
			"/* ==================== */\n/* Custom Cursor        */\n/* ==================== */\nbody {\n    cursor: none;", "functions.edit:19"},
	}
	for i, w := range want {
		c := calls[i]
		if c.Tool != "edit" || c.CallID != w.callID || len(c.Files) != 1 {
			t.Fatalf("call %d: tool %q call id %q files %v", i, c.Tool, c.CallID, c.Files)
		}
		f := c.Files[0]
		if f.Path != w.path || f.Op != core.OpEdit || f.OldText != w.old || !strings.HasPrefix(f.NewText, w.newPrefix) {
			t.Errorf("call %d touch %+v", i, f)
		}
	}
	if ts := calls[0].Timestamp.Format(time.RFC3339Nano); ts != "2026-06-17T06:28:52.494Z" {
		t.Errorf("edit call time %s", ts)
	}
}

func TestDatabaseFixtureWritesAndOutputs(t *testing.T) {
	res := parseFile(t, New(), fixtureDB(t, t.TempDir()))
	s := sessionByID(t, res, "ses_1279fce82ffeZOJhNwml1w1Fu4")
	var writes []core.FileTouch
	for _, e := range eventsOf(s, core.TypeToolCall) {
		if e.Tool == "write" {
			writes = append(writes, e.Files...)
		}
	}
	wantPaths := []string{"/home/build/server.py", "/home/build/requirements.txt", "/home/build/Procfile"}
	if len(writes) != 3 {
		t.Fatalf("write touches %v", writes)
	}
	for i, w := range writes {
		if w.Path != wantPaths[i] || w.Op != core.OpCreate {
			t.Errorf("write %d: %s %s", i, w.Path, w.Op)
		}
	}
	if writes[1].NewText != "Flask\ngunicorn\n" || writes[2].NewText != "web: gunicorn server:app" {
		t.Errorf("write contents %q %q", writes[1].NewText, writes[2].NewText)
	}
	outs := eventsOf(s, core.TypeCommandOutput)
	if len(outs) != 5 || outs[2].Text != "fatal: not a git repository (or any of the parent directories): .git\n" ||
		outs[4].Text != "/bin/bash: line 1: gh: command not found\n" || outs[0].Text == "" {
		t.Errorf("command outputs %+v", outs)
	}
	// The question tool was left running: a call without output.
	for _, e := range s.Events {
		if e.Tool == "question" && e.Type != core.TypeToolCall {
			t.Errorf("running question part has a %s event", e.Type)
		}
	}
}

func TestLegacyFixture(t *testing.T) {
	res := parseFile(t, New(), legacySessionPath(t))
	if len(res.Problems) != 0 || len(res.Sessions) != 1 {
		t.Fatalf("problems %v sessions %d", res.Problems, len(res.Sessions))
	}
	s := res.Sessions[0]
	ss := s.Session
	if ss.NativeID != "ses_4567b0e1affeRu0da2D26ls6sf" || ss.Title != "Project review and edits plan after reading details" ||
		ss.Workspace != "/home/bot4u/Desktop/GEMINI/Mini_project" || ss.Model != "big-pickle" || ss.IsSubagent {
		t.Errorf("session %+v", ss)
	}
	type ev struct {
		role core.Role
		typ  core.EventType
		text string
	}
	var got []ev
	for _, e := range s.Events {
		got = append(got, ev{e.Role, e.Type, e.Text})
	}
	want := []ev{
		{core.RoleUser, core.TypeMessage, "read this project i wanna edit few things i will tell you after you read it in detail"},
		{core.RoleAssistant, core.TypeOther, "step start"},
		{core.RoleAssistant, core.TypeMessage, "I'll read through your project to understand its structure and contents. Let me start by exploring the directory structure and then examine the key files."},
		{core.RoleAssistant, core.TypeOther, "step finished: stop"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n got %q\nwant %q", got, want)
	}
	if ts := s.Events[0].Timestamp.Format(time.RFC3339Nano); ts != "2026-01-10T20:07:00.899Z" {
		t.Errorf("prompt time %s", ts)
	}
	if ts := s.Events[2].Timestamp.Format(time.RFC3339Nano); ts != "2026-01-10T20:07:02.919Z" {
		t.Errorf("answer time %s (the text part's start)", ts)
	}
}
