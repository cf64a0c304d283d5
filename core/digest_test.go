package core

import (
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	s := &Session{NativeID: "n1", Model: "m1", Source: SourceRef{Root: "r", Group: "g"}}
	events := []Event{
		{Role: RoleUser, Type: TypeMessage, Text: "<environment_context>cwd</environment_context>"},
		{Role: RoleUser, Type: TypeMessage, Text: "Caveat: the messages below"},
		{Role: RoleUser, Type: TypeMessage, Text: "  fix the \x1b[31mflaky\x1b[0m\ntest  "},
		{Role: RoleAssistant, Type: TypeMessage, Text: "ok", Model: "m2", Tokens: &Tokens{Input: 3, Output: 4}},
		{Role: RoleAssistant, Type: TypeToolCall, Tool: "Edit", Files: []FileTouch{{Path: "a.go", Op: OpEdit}}},
		{Role: RoleAssistant, Type: TypeToolCall, Tool: "Read", Files: []FileTouch{{Path: "b.go", Op: OpRead}}},
		{Role: RoleAssistant, Type: TypeCommandStart, Command: "go test", Files: []FileTouch{{Path: "a.go", Op: OpWrite}}},
		{Role: RoleTool, Type: TypeToolOutput, IsError: true, Tokens: &Tokens{Input: 1, CacheRead: 9}},
		{Role: RoleSystem, Type: TypeCompaction},
	}
	d := Summarize(s, events)
	if d.Title != "fix the flaky test" || d.TitleSource != TitleFromPrompt {
		t.Fatalf("title %q from %q", d.Title, d.TitleSource)
	}
	if d.Prompts != 1 || d.Messages != 4 || d.ToolCalls != 2 || d.Commands != 1 || d.Errors != 1 || d.Compactions != 1 {
		t.Fatalf("counts %+v", d)
	}
	if d.Edited != 1 || len(d.Files) != 1 || d.Files[0] != "a.go" || !d.FilesComplete() {
		t.Fatalf("files %d %v", d.Edited, d.Files)
	}
	if strings.Join(d.Models, ",") != "m1,m2" || d.Tokens == nil || *d.Tokens != (Tokens{Input: 4, Output: 4, CacheRead: 9}) {
		t.Fatalf("models %v tokens %+v", d.Models, d.Tokens)
	}
	if d.NativeID != "n1" || d.SourceRoot != "r" || d.SourceGroup != "g" {
		t.Fatalf("identity %+v", d)
	}
	s.Title = "Agent's title"
	if d := Summarize(s, events); d.Title != "Agent's title" || d.TitleSource != TitleFromAgent {
		t.Fatalf("agent title %q %q", d.Title, d.TitleSource)
	}
}

func TestClipTitle(t *testing.T) {
	long := strings.Repeat("é", DigestTitleRunes+10)
	if got := clipTitle(long); len([]rune(got)) != DigestTitleRunes+1 || !strings.HasSuffix(got, "…") {
		t.Fatalf("clip %d runes", len([]rune(got)))
	}
	if got := clipTitle("a\tb\r\n\x07c\x1b]0;x"); got != "a b c0;x" {
		t.Fatalf("controls %q", got)
	}
}
