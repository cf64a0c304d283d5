package claude

import (
	"strings"
	"testing"

	"ctx/core"
)

// countTypes counts events by type.
func countTypes(s core.ParsedSession) map[core.EventType]int {
	out := map[core.EventType]int{}
	for _, e := range s.Events {
		out[e.Type]++
	}
	return out
}

func TestFixtureEventCounts(t *testing.T) {
	tests := []struct {
		file string
		want map[core.EventType]int
	}{
		// 2.1.114: 12 message ids (5 with text, 11 empty thinking blocks),
		// 29 tool uses of which 5 Bash, 36 attachments + 12 other bookkeeping.
		{mainFile, map[core.EventType]int{core.TypeMessage: 2 + 5, core.TypeToolCall: 24, core.TypeToolOutput: 24,
			core.TypeCommandStart: 5, core.TypeCommandOutput: 5, core.TypeCommandFinish: 5, core.TypeOther: 50}},
		{newSubagent, map[core.EventType]int{core.TypeMessage: 1 + 8, core.TypeToolCall: 10, core.TypeToolOutput: 10,
			core.TypeCommandStart: 7, core.TypeCommandOutput: 7, core.TypeCommandFinish: 7, core.TypeOther: 1}},
		{oldSubagent, map[core.EventType]int{core.TypeMessage: 1 + 6, core.TypeToolCall: 5, core.TypeToolOutput: 5}},
		// 1.0.51: 4 leading summaries, 12 subtype-less system records, 1 meta record.
		{legacyFile, map[core.EventType]int{core.TypeMessage: 3 + 6, core.TypeToolCall: 11, core.TypeToolOutput: 11,
			core.TypeCommandStart: 3, core.TypeCommandOutput: 3, core.TypeCommandFinish: 3, core.TypeOther: 4 + 12 + 1}},
		{compactFile, map[core.EventType]int{core.TypeMessage: 1, core.TypeReasoning: 1, core.TypeToolCall: 1,
			core.TypeToolOutput: 1, core.TypeCompaction: 1, core.TypeSummary: 1, core.TypeOther: 2 + 6}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := countTypes(parseFile(t, fixture(t, tt.file)))
			for _, typ := range core.EventTypes {
				if got[typ] != tt.want[typ] {
					t.Errorf("%s: %d events, want %d", typ, got[typ], tt.want[typ])
				}
			}
		})
	}
}

func TestFixtureEdits(t *testing.T) {
	sub := parseFile(t, fixture(t, newSubagent))
	edit := byKey(t, sub, "toolu_015D3xFYFxVgN2yXLWsMVhYF")
	path := "-experiments/worktrees/.claude/worktrees/agent-a52886dc/work/research-teammates.md"
	if edit.Type != core.TypeToolCall || edit.Tool != "Edit" || len(edit.Files) != 1 {
		t.Fatalf("edit call %+v", edit)
	}
	f := edit.Files[0]
	if f.Path != path || f.Op != "edit" ||
		!strings.Contains(f.OldText, "Instead of one agent linearly chewing through a\ntodo list") ||
		!strings.Contains(f.NewText, "A coordinator (team lead) decomposes the work,") {
		t.Errorf("edit touch %+v", f)
	}
	if !strings.Contains(edit.Text, "file_path: "+path) || !strings.Contains(edit.Text, "old_string: Claude Code ships") {
		t.Errorf("edit text %q", edit.Text)
	}
	out := byKey(t, sub, "toolu_015D3xFYFxVgN2yXLWsMVhYF/result")
	if out.CallID != edit.CallID || len(out.Files) != 1 || out.Files[0].Path != path || out.Files[0].OldText != "" {
		t.Errorf("edit output %+v", out)
	}
	write := byKey(t, sub, "toolu_012y4Ewfoq3b9oZpFa6fMiV9")
	if len(write.Files) != 1 || write.Files[0].Op != "write" ||
		!strings.HasPrefix(write.Files[0].NewText, "# Research: Teammate-based task coordination in Claude Code") {
		t.Errorf("write touch %+v", write.Files)
	}

	legacy := parseFile(t, fixture(t, legacyFile))
	multi := byKey(t, legacy, "toolu_01HZRxWDAe26Vd3w6RnAYsLF")
	if len(multi.Files) != 2 || multi.Files[1].Path != "/Users/dain/workspace/claude-code-log/test/test_cache.py" {
		t.Errorf("multiedit touches %+v", multi.Files)
	}
	e := byKey(t, legacy, "toolu_01VSrYbxMqhmdqb48FS53T9s").Files[0]
	if !strings.HasSuffix(e.OldText, "\n                pytest.skip(\"Cannot test permissions on this system\")") ||
		!strings.HasSuffix(e.NewText, "\n                return pytest.skip(\"Cannot test permissions on this system\")") {
		t.Errorf("edit touch %+v", e)
	}
	read := byKey(t, legacy, "toolu_012m3VCTqGiUAQ1Jrcgocik6")
	if len(read.Files) != 1 || read.Files[0].Op != "read" || read.Text != "file_path: /Users/dain/workspace/claude-code-log/test/test_cache.py\noffset: 195\nlimit: 15" {
		t.Errorf("read %+v", read)
	}
}

func TestFixtureCommands(t *testing.T) {
	legacy := parseFile(t, fixture(t, legacyFile))
	// Two "uv run ty check" runs failed: is_error without an "Exit code N"
	// prefix, so the exit code is unknown; the third passed.
	tests := []struct {
		id     string
		code   int // -1: unknown
		failed bool
	}{
		{"toolu_01GmZTNL9PrVbycZhu89QFke", -1, true},
		{"toolu_019UhuE3iCYHd1oTUMokWmXb", -1, true},
		{"toolu_01NwytLoH9oUULBq54ue2D79", 0, false},
	}
	for _, tt := range tests {
		start := byKey(t, legacy, tt.id)
		out, fin := byKey(t, legacy, tt.id+"/result"), byKey(t, legacy, tt.id+"/finish")
		if start.Type != core.TypeCommandStart || start.Command != "uv run ty check" || start.Text != start.Command {
			t.Errorf("%s start %+v", tt.id, start)
		}
		if out.Type != core.TypeCommandOutput || out.IsError != tt.failed || fin.Type != core.TypeCommandFinish ||
			fin.Command != start.Command || fin.IsError != tt.failed {
			t.Errorf("%s output %+v finish %+v", tt.id, out, fin)
		}
		if got := code(fin.ExitCode); got != tt.code || code(out.ExitCode) != tt.code {
			t.Errorf("%s exit code %d, want %d", tt.id, got, tt.code)
		}
	}
	if !strings.HasPrefix(byKey(t, legacy, "toolu_01GmZTNL9PrVbycZhu89QFke/result").Text, "WARN ty is pre-release") {
		t.Error("command output text lost")
	}
	if m := byKey(t, legacy, "181fd020-3612-490a-87f1-9e486e8697fd"); m.Type != core.TypeMessage ||
		m.Role != core.RoleUser || m.Text != "<bash-input>uv run ty check</bash-input>" {
		t.Errorf("bash-input message %+v", m)
	}
	if m := byKey(t, legacy, "216be49d-2393-42d5-8bb2-dccd663f3d82"); m.Type != core.TypeOther || m.Native != "user/meta" {
		t.Errorf("meta record %+v", m)
	}
}

func code(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func TestFixtureCompaction(t *testing.T) {
	s := parseFile(t, fixture(t, compactFile))
	c := byKey(t, s, "93839c6c-9847-40ff-8480-255fc680108c")
	if c.Type != core.TypeCompaction || c.Role != core.RoleSystem ||
		c.Text != "Conversation compacted (auto, 171100 → 6611 tokens)" {
		t.Errorf("compaction %+v", c)
	}
	sum := s.Events[c.Ordinal+1]
	if sum.Type != core.TypeSummary || sum.Key != "2722d592-49a0-43ba-bb39-09d9f02a498d" ||
		!strings.HasPrefix(sum.Text, "This session is being continued from a previous conversation") {
		t.Errorf("summary after compaction %+v", sum)
	}
	// One message id streamed as two lines: a thinking block, then a Read.
	r := byKey(t, s, "msg_a9376e6bf67345bab2eac998/thinking")
	if r.Type != core.TypeReasoning || r.Text != "The background task completed. Let me read the output file to see the results." {
		t.Errorf("reasoning %+v", r)
	}
	if call := s.Events[r.Ordinal+1]; call.Tool != "Read" || call.Model != "mimo-v2.5-pro" {
		t.Errorf("call after reasoning %+v", call)
	}
	var prompts []core.Event
	for _, e := range s.Events {
		if e.Native == "last-prompt" {
			prompts = append(prompts, e)
		}
	}
	if len(prompts) != 2 || prompts[0].ID == prompts[1].ID || prompts[0].Timestamp.IsZero() {
		t.Errorf("last-prompt events %+v", prompts)
	}
}

func TestFixtureLegacySummaries(t *testing.T) {
	s := parseFile(t, fixture(t, legacyFile))
	want := []string{"Local Command Execution and Screen Clearing", "Ruff Linting Fixes in Test Files",
		"Pyright Type Fixes in cache.py for JSON Data", "Claude Code Log: Timestamp-Based Caching Implementation"}
	for i, w := range want {
		e := s.Events[i]
		if e.Type != core.TypeOther || e.Native != "summary" || e.Text != w {
			t.Errorf("event %d %+v, want summary %q", i, e, w)
		}
	}
	var system int
	for _, e := range s.Events {
		if e.Native == "system" {
			system++
		}
	}
	if system != 12 {
		t.Errorf("%d subtype-less system events, want 12", system)
	}
}
