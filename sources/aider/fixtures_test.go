package aider

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

func parseFixture(t *testing.T) (core.ParseResult, string) {
	t.Helper()
	path := fixtureFile(t)
	res, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 {
		t.Fatalf("problems %v", res.Problems)
	}
	return res, path
}

// TestFixtureSessions checks the sessions read by hand from the fixture: 19
// headers, of which 6 (11:47:49, 11:54:05, 11:58:11, 12:26:51, 13:08:08,
// 14:12:58) have no input or reply.
func TestFixtureSessions(t *testing.T) {
	res, path := parseFixture(t)
	var got []string
	for _, s := range res.Sessions {
		native := s.Session.NativeID
		got = append(got, strings.TrimPrefix(native, path+"#"))
		if s.Session.Workspace != filepath.Dir(path) || s.Session.Provider != ProviderID {
			t.Errorf("%s: workspace %q provider %q", native, s.Session.Workspace, s.Session.Provider)
		}
		start, _ := time.Parse("2006-01-02 15:04:05", strings.TrimPrefix(native, path+"#"))
		if !s.Session.Started.Equal(start) || !s.Session.Ended.Equal(start) {
			t.Errorf("%s: started %v ended %v", native, s.Session.Started, s.Session.Ended)
		}
	}
	want := []string{"2025-06-02 11:49:34", "2025-06-02 12:02:21", "2025-06-02 12:04:48", "2025-06-02 12:27:34",
		"2025-06-02 12:33:18", "2025-06-02 12:40:59", "2025-06-02 12:45:49", "2025-06-02 12:55:22",
		"2025-06-02 13:02:14", "2025-06-02 13:08:34", "2025-06-02 13:32:13", "2025-06-02 14:15:20",
		"2025-06-02 14:29:21"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sessions\n got %v\nwant %v", got, want)
	}
	models := map[string]string{"11:49:34": "qwen3-235b-a22b", "12:04:48": "openrouter/qwen/qwen3-235b-a22b",
		"12:27:34": "vertex_ai/claude-sonnet-4@20250514", "13:32:13": "gemini/gemini-2.5-pro-preview-05-06"}
	for suffix, model := range models {
		if s := session(t, res, suffix); s.Session.Model != model {
			t.Errorf("%s: model %q, want %q", suffix, s.Session.Model, model)
		}
	}
}

// TestFixtureConversation checks prompts, replies and tool output of the
// 13:02:14 session, whose one edit was applied and committed.
func TestFixtureConversation(t *testing.T) {
	res, _ := parseFixture(t)
	s := session(t, res, "13:02:14")
	prompts := texts(byType(s, core.TypeMessage))
	want := []string{"Comment on my CONVENTIONS.md", "Could you please clarify", "Comment on my CONVENTIONS.md\nI'm looking for suggestions, feedbacks. Everything.", "Okay, I've reviewed your `CONVENTIONS.md` file."}
	if len(prompts) != len(want) {
		t.Fatalf("messages %q", prompts)
	}
	for i := range want {
		if !strings.HasPrefix(prompts[i], want[i]) {
			t.Errorf("message %d = %.60q, want prefix %q", i, prompts[i], want[i])
		}
	}
	if first := s.Events[0]; first.Type != core.TypeOther || first.Native != "startup" ||
		!strings.Contains(first.Text, "Aider v0.84.0") {
		t.Errorf("first event %+v, want the startup banner", first)
	}
	edits := byType(s, core.TypeToolCall)
	if len(edits) != 1 {
		t.Fatalf("edits %d, want 1", len(edits))
	}
	f := edits[0].Files[0]
	if f.Path != "packages/module/es/src/CONVENTIONS.md" || f.Op != core.OpEdit ||
		!strings.HasPrefix(f.OldText, "When writing code in TypeScript, try to:\n- Follow eslint airbnb coding style\n") ||
		!strings.HasSuffix(f.NewText, "- Use a code formatter like Prettier (configured in the project) to ensure consistent code style and minimize stylistic debates.\n") {
		t.Errorf("edit %+v", f)
	}
	outs := texts(byType(s, core.TypeToolOutput))
	if !strings.Contains(strings.Join(outs, "\n"), "Applied edit to packages\\module\\es\\src\\CONVENTIONS.md\nCommit a99e014 docs: Add new and clarify existing conventions") {
		t.Errorf("tool output lacks the applied edit and commit: %q", outs)
	}
	for _, e := range s.Events {
		if e.Type == core.TypeMessage && e.Role == core.RoleAssistant && e.Model != "gemini/gemini-2.5-pro-preview-05-06" {
			t.Errorf("reply model %q", e.Model)
		}
	}
}

// TestFixtureEdits counts the SEARCH/REPLACE edits per session: 49 blocks
// in the file, 7 of them quoted back inside "failed to match" errors.
func TestFixtureEdits(t *testing.T) {
	res, _ := parseFixture(t)
	want := map[string]int{"13:02:14": 1, "13:08:34": 7, "13:32:13": 18, "14:15:20": 3, "14:29:21": 13}
	total, failed := 0, 0
	for _, s := range res.Sessions {
		n := 0
		for _, e := range s.Events {
			switch {
			case e.Type == core.TypeToolCall:
				n++
				if e.Tool != toolSearchReplace || len(e.Files) != 1 || e.Files[0].Op != core.OpEdit {
					t.Errorf("edit %+v", e)
				}
			case e.Type == core.TypeToolOutput && strings.Contains(e.Text, "SEARCH/REPLACE block failed to match"):
				failed++
				if !e.IsError {
					t.Errorf("failed edit output not an error: %.80q", e.Text)
				}
			}
		}
		total += n
		suffix := s.Session.NativeID[len(s.Session.NativeID)-8:]
		if n != want[suffix] {
			t.Errorf("%s: %d edits, want %d", suffix, n, want[suffix])
		}
	}
	if total != 42 || failed != 7 {
		t.Errorf("edits %d failed outputs %d, want 42 and 7", total, failed)
	}
	// The corrected block after the first failure (13:32:13).
	s := session(t, res, "13:32:13")
	var paths []string
	for _, e := range byType(s, core.TypeToolCall) {
		paths = append(paths, e.Files[0].Path)
	}
	if paths[1] != "packages/module/es/src/index.ts" || paths[len(paths)-1] != "packages/module/es/src/iterables.union.ts" {
		t.Errorf("paths %v", paths)
	}
}

// TestFixtureQuirks checks the confirmation answers Aider logged as input,
// a session driven by "AI!" comments (a reply without a prompt) and /undo.
func TestFixtureQuirks(t *testing.T) {
	res, _ := parseFixture(t)
	s := session(t, res, "13:08:34")
	confirms := 0
	for _, e := range s.Events {
		if e.Native == "confirm" {
			confirms++
			if e.Role != core.RoleUser || !strings.HasSuffix(e.Text, "[Yes]: all") {
				t.Errorf("confirm %+v", e)
			}
		}
	}
	if confirms != 2 {
		t.Errorf("confirm answers %d, want 2", confirms)
	}
	s = session(t, res, "14:15:20")
	if e := s.Events[1]; e.Role != core.RoleAssistant || e.Type != core.TypeMessage {
		t.Errorf("event after the banner %+v, want a reply", e)
	}
	if got := texts(byType(s, core.TypeMessage)); !contains(got, "/undo") {
		t.Errorf("messages %v lack /undo", got)
	}
	s = session(t, res, "12:04:48")
	if n := len(byType(s, core.TypeReasoning)); n != 0 {
		t.Errorf("empty thinking section gave %d reasoning events", n)
	}
	if m := byType(s, core.TypeMessage); len(m) != 2 || !strings.HasPrefix(m[1].Text, "You haven't shared the full contents") {
		t.Errorf("messages %q", texts(m))
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
