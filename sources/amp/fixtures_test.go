package amp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/sources/sourcestest"
)

// Facts below were read by hand from the fixture threads.

func TestFixtureGrepThread(t *testing.T) {
	ps := parseThread(t, "T-1d0ef56c-0ecd-4bf7-af7b-5bc196dc8a6a.json")
	s := ps.Session
	if s.NativeID != "T-1d0ef56c-0ecd-4bf7-af7b-5bc196dc8a6a" || s.Title != "User logout process" ||
		s.Workspace != "/home/runner/workspace" || s.GitBranch != "main" || s.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("session %+v", s)
	}
	if !s.Started.Equal(time.UnixMilli(1761596190373).UTC()) || !s.Ended.Equal(time.Date(2025, 10, 27, 20, 18, 20, 713e6, time.UTC)) {
		t.Errorf("started %v ended %v", s.Started, s.Ended)
	}
	checkShape(t, ps, []string{"message/user", "reasoning/assistant", "message/assistant", "tool_call/assistant",
		"tool_call/assistant", "tool_call/assistant", "tool_output/tool", "tool_output/tool", "tool_output/tool"})
	prompt := ps.Events[0]
	if prompt.Text != "logout" || !prompt.Timestamp.Equal(time.UnixMilli(1761596294721).UTC()) || prompt.Key != "m0/0" {
		t.Errorf("prompt %q at %v key %q", prompt.Text, prompt.Timestamp, prompt.Key)
	}
	if !strings.HasPrefix(ps.Events[1].Text, `The user is asking about "logout".`) || ps.Events[2].Text != "I'll search for logout functionality in your codebase." {
		t.Errorf("assistant %q / %q", ps.Events[1].Text, ps.Events[2].Text)
	}
	globs := []string{"**/*.py", "**/*.html", "**/*.js"}
	for i, g := range globs {
		call, out := ps.Events[3+i], ps.Events[6+i]
		if call.Tool != "Grep" || !strings.HasPrefix(call.CallID, "toolu_vrtx_") || call.Key != call.CallID ||
			call.Text != "pattern: logout\nglob: "+g || out.CallID != call.CallID || out.Tool != "Grep" {
			t.Errorf("grep %d: call %+v output %+v", i, call, out)
		}
	}
	py := ps.Events[6].Text
	if n := strings.Count(py, "\n") + 1; n != 11 || !strings.HasPrefix(py, "/home/runner/workspace/app/__init__.py:254:'logout': 'auth.logout',") {
		t.Errorf("python matches: %d lines, %.60q", n, py)
	}
	// The .js search was still "in-progress" when the thread was saved.
	if ps.Events[8].Text != "No results found." || ps.Events[8].IsError {
		t.Errorf("in-progress result %+v", ps.Events[8])
	}
}

func TestFixtureGreetingThread(t *testing.T) {
	ps := parseThread(t, "T-6b45efa0-1bae-4277-9991-293950d0ab14.json")
	s := ps.Session
	if s.NativeID != "T-6b45efa0-1bae-4277-9991-293950d0ab14" || s.Title != "Welcome to coding assistance" {
		t.Errorf("session %+v", s)
	}
	checkShape(t, ps, []string{"message/user", "reasoning/assistant", "message/assistant"})
	if ps.Events[0].Text != "hi" || ps.Events[2].Text != "Hi! How can I help you today?" ||
		ps.Events[2].Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("events %+v", ps.Events)
	}
	if want := time.Date(2025, 10, 27, 20, 15, 7, 762e6, time.UTC); !ps.Events[2].Timestamp.Equal(want) {
		t.Errorf("answer stamped %v, want the ledger's %v", ps.Events[2].Timestamp, want)
	}
}

func TestConformance(t *testing.T) {
	var files []core.SourceFile
	err := filepath.WalkDir(fixtureDir(t), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, core.SourceFile{Provider: ProviderAmp, Path: p})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sourcestest.Run(t, New(), files)
}
