package claude

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"ctx/core"
)

const (
	mainSession = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
	mainFile    = "projects/-experiments-worktrees/" + mainSession + ".jsonl"
	newSubagent = "projects/-experiments-worktrees/" + mainSession + "/subagents/agent-a52886dc180afb356.jsonl"
	oldSubagent = "projects/-Users-dain-workspace-coderabbit-review-helper/agent-9fa17969.jsonl"
	legacyFile  = "projects/-Users-dain-workspace-claude-code-log-sample/326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl"
	compactFile = "compaction/db3f6604-87af-4808-9c12-c2c5d34c3857.lines296-309.jsonl"
)

// TestFixturesInvariants checks every real transcript for what must hold of
// any parse: unique ids, one message per message id, paired calls and outputs.
func TestFixturesInvariants(t *testing.T) {
	for _, path := range fixtureFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s := parseFile(t, path)
			if s.Session.ID.IsZero() || s.Session.EventCount != len(s.Events) || len(s.Events) == 0 {
				t.Fatalf("session not finalized: %+v", s.Session)
			}
			seen := map[core.EventID]bool{}
			for _, e := range s.Events {
				if seen[e.ID] {
					t.Errorf("duplicate event id %s (key %q)", e.ID, e.Key)
				}
				seen[e.ID] = true
				if e.Key == "" {
					t.Errorf("event %d (%s) has no provider key", e.Ordinal, e.Type)
				}
			}
			var assistant int
			for _, e := range ofType(s, core.TypeMessage) {
				if e.Role == core.RoleAssistant {
					assistant++
				}
			}
			if want := textMessageIDs(t, path); assistant != want {
				t.Errorf("%d assistant messages, want %d (distinct message ids with text)", assistant, want)
			}
			checkPairs(t, s)
		})
	}
}

// checkPairs asserts each call has exactly one output with the same call id
// and tool, and each command start exactly one finish.
func checkPairs(t *testing.T, s core.ParsedSession) {
	t.Helper()
	outputs, finishes := map[string][]core.Event{}, map[string]int{}
	for _, e := range s.Events {
		switch e.Type {
		case core.TypeToolOutput, core.TypeCommandOutput:
			outputs[e.CallID] = append(outputs[e.CallID], e)
		case core.TypeCommandFinish:
			finishes[e.CallID]++
		}
	}
	for _, e := range s.Events {
		if e.Type != core.TypeToolCall && e.Type != core.TypeCommandStart {
			continue
		}
		out := outputs[e.CallID]
		if len(out) != 1 || out[0].Tool != e.Tool {
			t.Errorf("call %s (%s): outputs %d, want 1 with the same tool", e.CallID, e.Tool, len(out))
		}
		if e.Type == core.TypeCommandStart && (finishes[e.CallID] != 1 || out[0].Command != e.Command) {
			t.Errorf("command %s: %d finishes, output command %q", e.CallID, finishes[e.CallID], out[0].Command)
		}
	}
}

// TestFixturesStableIDs re-parses every transcript whole and cut after each
// line: the ids of a prefix parse are a prefix of the full parse's ids.
func TestFixturesStableIDs(t *testing.T) {
	for _, path := range fixtureFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			full := parseFile(t, path)
			again := parseFile(t, path)
			if !slices.Equal(eventIDs(full), eventIDs(again)) || full.Session.ID != again.Session.ID {
				t.Fatal("re-parse changed ids")
			}
			lines := readLines(t, path)
			for k := 1; k < len(lines); k++ {
				data := bytes.Join(lines[:k], nil)
				cut := parseString(t, path, string(data)).Sessions[0]
				if cut.Session.ID != full.Session.ID {
					t.Fatalf("first %d lines: session %s, want %s", k, cut.Session.NativeID, full.Session.NativeID)
				}
				ids := eventIDs(cut)
				if len(ids) > len(full.Events) || !slices.Equal(ids, eventIDs(full)[:len(ids)]) {
					t.Fatalf("first %d lines: event ids are not a prefix of the full parse", k)
				}
				checkPrefixTexts(t, k, cut, full)
			}
		})
	}
}

// checkPrefixTexts asserts events of a prefix parse equal the full parse's,
// except for the text of messages whose streamed blocks may have been cut.
func checkPrefixTexts(t *testing.T, k int, cut, full core.ParsedSession) {
	t.Helper()
	for i, e := range cut.Events {
		f := full.Events[i]
		if e.Type == core.TypeMessage || e.Type == core.TypeReasoning {
			continue
		}
		if e.Text != f.Text || e.Type != f.Type || e.CallID != f.CallID || !e.Timestamp.Equal(f.Timestamp) {
			t.Fatalf("first %d lines: event %d (%s) differs from the full parse", k, i, e.Key)
		}
	}
}

func TestFixtureSessions(t *testing.T) {
	mainID := core.NewSessionID(core.ProviderClaude, mainSession)
	oldParent := core.NewSessionID(core.ProviderClaude, "741790a4-4fe2-4644-9a51-fb4482074060")
	tests := []struct {
		file                      string
		native, agentID, agentTyp string
		parent                    core.SessionID
		workspace, branch, model  string
		title, started            string
	}{
		{mainFile, mainSession, "", "", core.SessionID{}, "-experiments/worktrees", "master",
			"claude-opus-4-7", "", "2026-04-18T13:10:51.686Z"},
		{newSubagent, mainSession + "/agent-a52886dc180afb356", "a52886dc180afb356", "general-purpose", mainID,
			"-experiments/worktrees/.claude/worktrees/agent-a52886dc", "worktree-agent-a4ca7529",
			"claude-opus-4-7", "Research Claude Code teammates", "2026-04-18T13:20:47.028Z"},
		{oldSubagent, "741790a4-4fe2-4644-9a51-fb4482074060/agent-9fa17969", "9fa17969", "", oldParent,
			"/Users/dain/workspace/coderabbit-review-helper", "fix/comment-attribution-and-pagination",
			"claude-sonnet-4-5-20250929", "", "2025-11-14T12:29:57.118Z"},
		{legacyFile, "326189cf-5676-4237-8cde-1ce80aae4a9f", "", "", core.SessionID{},
			"/Users/dain/workspace/claude-code-log", "", "claude-sonnet-4-20250514",
			"Local Command Execution and Screen Clearing", "2025-07-13T21:17:00.244Z"},
		{compactFile, "db3f6604-87af-4808-9c12-c2c5d34c3857", "", "", core.SessionID{}, `e:\CC-test`, "HEAD",
			"mimo-v2.5-pro", "", "2026-05-19T04:10:09.268Z"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			s := parseFile(t, fixture(t, tt.file)).Session
			got := []string{s.NativeID, s.AgentID, s.AgentType, s.Workspace, s.GitBranch, s.Model, s.Title,
				s.Started.Format("2006-01-02T15:04:05.000Z")}
			want := []string{tt.native, tt.agentID, tt.agentTyp, tt.workspace, tt.branch, tt.model, tt.title, tt.started}
			if !slices.Equal(got, want) {
				t.Errorf("session\n got %q\nwant %q", got, want)
			}
			sub := !tt.parent.IsZero()
			if s.IsSubagent != sub || s.ParentSessionID != tt.parent {
				t.Errorf("subagent %v parent %s, want %v %s", s.IsSubagent, s.ParentSessionID, sub, tt.parent)
			}
			if wantRoot := map[bool]core.SessionID{true: tt.parent, false: s.ID}[sub]; s.RootSessionID != wantRoot {
				t.Errorf("root %s, want %s", s.RootSessionID, wantRoot)
			}
			if s.Source.Path != fixture(t, tt.file) || s.Source.Provider != core.ProviderClaude {
				t.Errorf("source %+v", s.Source)
			}
		})
	}
}
