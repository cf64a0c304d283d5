package copilot

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

func parseFixture(t *testing.T, rel string) core.ParsedSession {
	t.Helper()
	res, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: filepath.Join(fixtureDir(t), filepath.FromSlash(rel))})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 || len(res.Sessions) != 1 {
		t.Fatalf("problems %v sessions %d", res.Problems, len(res.Sessions))
	}
	return res.Sessions[0]
}

// TestFixtureSession checks the session facts read by hand from the first
// 74 lines of the real log and its workspace.yaml.
func TestFixtureSession(t *testing.T) {
	ps := parseFixture(t, fixtureLog)
	s := ps.Session
	start, _ := time.Parse(time.RFC3339, "2026-03-21T12:58:56.777Z")
	end, _ := time.Parse(time.RFC3339, "2026-03-21T13:11:49.822Z")
	if s.NativeID != fixtureID || s.Workspace != `C:\Github\poule_v2` || s.GitBranch != "main" ||
		s.Title != "Create Database Migrations And Seeder" || s.Model != "gpt-5-mini" || s.IsSubagent ||
		!s.Started.Equal(start) || !s.Ended.Equal(end) {
		t.Errorf("session %+v", s)
	}
	// 74 records: 14 tool.execution_start repeat their request; 13 assistant
	// messages give 14 calls, 6 reasoning texts and 2 messages; 2 shell
	// results add a finish.
	if len(ps.Events) != 71 {
		t.Errorf("events %d, want 71", len(ps.Events))
	}
	var prompts []string
	for _, e := range byType(ps, core.TypeMessage) {
		if e.Role == core.RoleUser {
			prompts = append(prompts, e.Text)
		}
	}
	want := []string{"database schema in ./database/poule.sql, kun je migraties en een seeder maken voor deze applicatie. sql configuratie is in config.cfg.php",
		"maak migratie bestanden en de tabel poule_v2 bestaat al, gebruik alleen de tabellen en data.",
		"DROP TABLE IF EXISTS toevoegen en voor daarna de migrate en seed uit."}
	if !reflect.DeepEqual(prompts, want) {
		t.Errorf("prompts %q", prompts)
	}
	var replies []core.Event
	for _, e := range byType(ps, core.TypeMessage) {
		if e.Role == core.RoleAssistant {
			replies = append(replies, e)
		}
	}
	if len(replies) != 2 || !strings.HasPrefix(replies[0].Text, "Planning: generate migration + seeder SQL") ||
		!strings.HasPrefix(replies[1].Text, "Klaar — migratie- en seeder-bestanden aangemaakt.") || replies[1].Model != "gpt-5-mini" {
		t.Errorf("replies %q", texts(replies))
	}
	if r := byType(ps, core.TypeReasoning); len(r) != 6 || !strings.HasPrefix(r[0].Text, "**Understanding database tasks**") {
		t.Errorf("reasoning %d %q", len(r), texts(r))
	}
}

// TestFixtureTools checks the calls: 3 report_intent, 5 view, 4 create (the
// first failed: its directory did not exist), 2 powershell commands.
func TestFixtureTools(t *testing.T) {
	ps := parseFixture(t, fixtureLog)
	tools := map[string]int{}
	for _, e := range byType(ps, core.TypeToolCall, core.TypeCommandStart) {
		tools[e.Tool]++
	}
	if want := map[string]int{"report_intent": 3, "view": 5, "create": 4, "powershell": 2}; !reflect.DeepEqual(tools, want) {
		t.Errorf("tools %v, want %v", tools, want)
	}
	var cmds []string
	var exits []int
	for _, e := range byType(ps, core.TypeCommandStart, core.TypeCommandFinish) {
		if e.Type == core.TypeCommandStart {
			cmds = append(cmds, e.Command)
		} else {
			exits = append(exits, *e.ExitCode)
		}
	}
	if !reflect.DeepEqual(cmds, []string{`New-Item -ItemType Directory -Path 'C:\Github\poule_v2\scripts' -Force`,
		`php .\scripts\generate_migrations_and_seed.php`}) || !reflect.DeepEqual(exits, []int{0, 0}) {
		t.Errorf("commands %q exits %v", cmds, exits)
	}
	out := byType(ps, core.TypeCommandOutput)[1]
	if out.CallID != "call_Pg6Yt5kimbxbJfgjjtmSXH0r" || strings.Contains(out.Text, "<exited") ||
		!strings.HasPrefix(out.Text, "Wrote:\n  C:\\Github\\poule_v2\\database\\migrations/001_poule_schema.sql") {
		t.Errorf("output %+v", out)
	}
	var created []string
	for _, e := range byType(ps, core.TypeToolCall) {
		for _, f := range e.Files {
			if f.Op == core.OpCreate {
				created = append(created, filepath.Base(strings.ReplaceAll(f.Path, `\`, "/")))
				if !strings.HasPrefix(f.NewText, "<?php\n// ") {
					t.Errorf("create %s content %.30q", f.Path, f.NewText)
				}
			}
		}
		if e.CallID == "call_UjwqWfYvuq3HpPaEladu3oGm" && !e.IsError {
			t.Error("the failed create is not marked as an error")
		}
	}
	if want := []string{"generate_migrations_and_seed.php", "generate_migrations_and_seed.php", "migrate.php", "seed.php"}; !reflect.DeepEqual(created, want) {
		t.Errorf("created %v", created)
	}
	for _, e := range byType(ps, core.TypeToolOutput) {
		if e.CallID == "call_UjwqWfYvuq3HpPaEladu3oGm" && (e.Text != "Parent directory does not exist" || !e.IsError) {
			t.Errorf("failed create output %+v", e)
		}
	}
}

// TestFixtureEdit checks the edit call of the excerpt (lines 116-121).
func TestFixtureEdit(t *testing.T) {
	ps := parseFixture(t, fixtureEdits)
	if ps.Session.NativeID != "events.lines116-121" || ps.Session.Model != "gpt-5-mini" {
		t.Errorf("session %+v", ps.Session)
	}
	calls := byType(ps, core.TypeToolCall)
	if len(calls) != 1 || len(calls[0].Files) != 1 {
		t.Fatalf("calls %+v", calls)
	}
	f := calls[0].Files[0]
	want := core.FileTouch{Path: `C:\Github\poule_v2\scripts\seed.php`, Op: core.OpEdit,
		OldText: "}\n$seedDir = realpath(__DIR__ . '/../database/seeders');",
		NewText: "}\n// Disable foreign key checks during seeding to avoid ordering issues\n$mysqli->query('SET FOREIGN_KEY_CHECKS=0');\n$seedDir = realpath(__DIR__ . '/../database/seeders');"}
	if !reflect.DeepEqual(f, want) || calls[0].CallID != "call_OQxrB5JUUxald4tgc9EFHexG" {
		t.Errorf("edit %+v", f)
	}
	if out := byType(ps, core.TypeToolOutput); len(out) != 1 || out[0].Text != `File C:\Github\poule_v2\scripts\seed.php updated with changes.` {
		t.Errorf("output %q", texts(out))
	}
}
