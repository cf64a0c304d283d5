package cline

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

// Facts below were read by hand from the fixture files.

func TestFixtureAPIHistory(t *testing.T) {
	path := filepath.Join(fixtureDir(t), "tasks", "1777073160794", APIFile)
	ps := parseFile(t, path)
	s := ps.Session
	if s.NativeID != "1777073160794" || s.Provider != ProviderCline || s.IsSubagent {
		t.Errorf("identity %q %q subagent=%v", s.NativeID, s.Provider, s.IsSubagent)
	}
	if s.Model != "claude_4_5_opus" || s.Workspace != "c:/Apps/MRA022626 - Copy/Marine-Response-Repo" {
		t.Errorf("model %q workspace %q", s.Model, s.Workspace)
	}
	if !strings.HasPrefix(s.Title, "The attached is a technical writeup for this application") {
		t.Errorf("title %q", s.Title)
	}
	if want := time.UnixMilli(1777073160794).UTC(); !s.Started.Equal(want) {
		t.Errorf("started %v, want %v", s.Started, want)
	}
	if want := time.UnixMilli(1777345999057).UTC(); !s.Ended.Equal(want) {
		t.Errorf("ended %v, want %v", s.Ended, want)
	}
	prompts := filter(ps, func(e core.Event) bool { return e.Type == core.TypeMessage && e.Role == core.RoleUser })
	if len(prompts) != 2 || !strings.HasPrefix(prompts[1].Text, "Here are the details for the new GCP environment.") {
		t.Errorf("prompts %d: %q", len(prompts), shape(prompts))
	}
	asst := filter(ps, func(e core.Event) bool { return e.Type == core.TypeMessage && e.Role == core.RoleAssistant })
	if len(asst) != 9 || asst[0].Model != "claude_4_5_opus" {
		t.Errorf("assistant messages %d", len(asst))
	}
	if n := len(filter(ps, func(e core.Event) bool { return e.Native == "injected_context" })); n != 19 {
		t.Errorf("injected context events %d, want 19 (one per user message)", n)
	}
	checkAPICalls(t, ps)
	checkAPICommands(t, ps)
	checkAPIEdits(t, ps)
}

func checkAPICalls(t *testing.T, ps core.ParsedSession) {
	t.Helper()
	calls := ofType(ps, core.TypeToolCall)
	byTool := map[string]int{}
	for _, c := range calls {
		byTool[c.Tool]++
		if !strings.HasPrefix(c.CallID, "tooluse_") || c.Key != c.CallID {
			t.Errorf("call %s key %q id %q", c.Tool, c.Key, c.CallID)
		}
	}
	want := map[string]int{"read_file": 13, "replace_in_file": 3, "list_files": 2, "search_files": 2,
		"plan_mode_respond": 2, "write_to_file": 2, "use_subagents": 1, "ask_followup_question": 1}
	if !reflect.DeepEqual(byTool, want) {
		t.Errorf("tool calls %v, want %v", byTool, want)
	}
	outs := ofType(ps, core.TypeToolOutput)
	paired := 0
	for _, o := range outs {
		if o.CallID != "" {
			paired++
		}
	}
	// Every call but ask_followup_question and the first plan_mode_respond
	// (both answered by a task resumption) has a result.
	if len(outs) != 24 || paired != 24 {
		t.Errorf("tool outputs %d, paired %d, want 24", len(outs), paired)
	}
	if outs[0].Tool != "use_subagents" || !strings.HasPrefix(outs[0].Text, "Subagent results:\nTotal: 5") {
		t.Errorf("first output %s %.40q", outs[0].Tool, outs[0].Text)
	}
}

func checkAPICommands(t *testing.T, ps core.ParsedSession) {
	t.Helper()
	starts := ofType(ps, core.TypeCommandStart)
	finishes := ofType(ps, core.TypeCommandFinish)
	if len(starts) != 2 || len(finishes) != 2 {
		t.Fatalf("commands %d finishes %d, want 2 and 2", len(starts), len(finishes))
	}
	if starts[0].Command != `cd c:\Apps\MRA04242026 && npm install @google-cloud/storage` {
		t.Errorf("command %q", starts[0].Command)
	}
	for _, f := range finishes {
		if f.ExitCode == nil || *f.ExitCode != 0 || f.IsError {
			t.Errorf("finish %+v", f)
		}
	}
	outs := ofType(ps, core.TypeCommandOutput)
	if len(outs) != 2 || !strings.HasPrefix(outs[1].Text, "src/ai/flows/create-incident-report.ts(154,29): error TS2559") {
		t.Errorf("command outputs %d: %.60q", len(outs), outs[len(outs)-1].Text)
	}
}

func checkAPIEdits(t *testing.T, ps core.ParsedSession) {
	t.Helper()
	const report = `c:\Apps\MRA04242026\src\ai\flows\create-incident-report.ts`
	const storage = `c:\Apps\MRA04242026\src\lib\gcs-storage.ts`
	var edits, writes []core.FileTouch
	for _, e := range ofType(ps, core.TypeToolCall) {
		for _, f := range e.Files {
			switch f.Op {
			case core.OpEdit:
				edits = append(edits, f)
			case core.OpWrite:
				writes = append(writes, f)
			}
		}
	}
	if len(edits) != 3 || edits[0].Path != report ||
		!strings.Contains(edits[0].OldText, "import { getStorage } from '@/lib/firebase-admin';") ||
		!strings.Contains(edits[0].NewText, "import { getBucket } from '@/lib/gcs-storage';") ||
		strings.Contains(edits[0].NewText, "REPLACE") {
		t.Errorf("edits %d: %+v", len(edits), edits)
	}
	if edits[1].OldText != "    if (input.mediaDataUris && input.mediaDataUris.length > 0) {\n      const { fileTypeFromBuffer } = await import('file-type');\n      const bucket = getStorage().bucket();" {
		t.Errorf("second edit old text %q", edits[1].OldText)
	}
	if len(writes) != 2 || writes[0].Path != storage || !strings.HasPrefix(writes[0].NewText, "/**\n * @file gcs-storage.ts") {
		t.Errorf("writes %d", len(writes))
	}
	// The user cleared the first write before saving: the result's diff is
	// kept as a patch on the output.
	out := filter(ps, func(e core.Event) bool { return e.Type == core.TypeToolOutput && len(e.Files) > 0 })
	if len(out) != 1 || out[0].Files[0].Path != storage || out[0].Files[0].Op != core.OpPatch ||
		!strings.HasPrefix(out[0].Files[0].Patch, "@@ -1,125 +1,1 @@\n-/**") {
		t.Errorf("user edit outputs %+v", out)
	}
}

func TestFixtureUILog(t *testing.T) {
	ps := parseFile(t, filepath.Join(fixtureDir(t), "task_sample", UIFile))
	s := ps.Session
	if s.NativeID != "task_sample" || s.Workspace != "c:/Users/alex_/mygems/Jira-Xray-Gem" {
		t.Errorf("native %q workspace %q", s.NativeID, s.Workspace)
	}
	if !strings.HasPrefix(s.Title, "nono when we read history for tasks") || len(ps.Events) != 22 {
		t.Errorf("title %q, %d events", s.Title, len(ps.Events))
	}
	rsn := ofType(ps, core.TypeReasoning)
	if len(rsn) != 1 || rsn[0].Model != "claude-opus-4-6" || !strings.HasPrefix(rsn[0].Text, "Let me understand the task.") {
		t.Errorf("reasoning %+v", rsn)
	}
	var reads []string
	for _, c := range ofType(ps, core.TypeToolCall) {
		for _, f := range c.Files {
			if f.Op == core.OpRead {
				reads = append(reads, f.Path)
			}
		}
	}
	if len(reads) != 8 || reads[0] != "src-tauri/src/conversation_history/types.rs" ||
		reads[7] != "src/lib/tabs/history/TaskDetailView.svelte" {
		t.Errorf("reads %q", reads)
	}
	if n := len(filter(ps, func(e core.Event) bool { return e.Native == "say:task_progress" })); n != 8 {
		t.Errorf("task_progress events %d, want 8", n)
	}
}

func TestFixtureUIExcerpt(t *testing.T) {
	ps := parseFile(t, filepath.Join(fixtureDir(t), "task_sample", "ui_messages.excerpt-entries156-175.json"))
	want := []string{"compaction/system/conversation_history_deleted_range", "reasoning/assistant",
		"message/assistant", "command_start/assistant", "command_output/tool",
		"other/system/say:task_progress", "other/system/say:checkpoint_created"}
	if got := shape(ps.Events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	if ps.Events[0].Text != "context truncated: messages 2-17 left out of the model's view" {
		t.Errorf("compaction %q", ps.Events[0].Text)
	}
	cmd, out := ps.Events[3], ps.Events[4]
	if !strings.HasPrefix(cmd.Command, `cargo check --manifest-path c:\Users\alex_\mygems\Jira-Xray-Gem\src-tauri\Cargo.toml`) {
		t.Errorf("command %q", cmd.Command)
	}
	// Fifteen streamed output rows are one event keyed by the first row.
	if out.Command != cmd.Command || out.Key != "u1770579061866" ||
		!strings.HasPrefix(out.Text, "(base) cargo :     Checking jira-viewer v0.1.0") ||
		!strings.Contains(out.Text, "Finished `dev` profile [unoptimized + debuginfo] target(s) in 5.12s") {
		t.Errorf("output %q %.80q", out.Key, out.Text)
	}
}
