package core

import (
	"testing"
	"time"
)

func TestMatchSession(t *testing.T) {
	root := NewSessionID("p", "root")
	sub := NewSessionID("p", "root/sub")
	other := NewSessionID("p", "other")
	primary := SessionFacts{ID: root, Provider: ProviderClaude, Workspace: "/a/b", SourceRoot: "work"}
	subagent := SessionFacts{ID: sub, Root: root, Provider: ProviderClaude, Workspace: "/a/b/c", Subagent: true, SourceGroup: "team"}
	stranger := SessionFacts{ID: other, Provider: ProviderCodex, Workspace: "/a/bc"}
	tests := []struct {
		name string
		f    Filter
		want [3]bool // primary, subagent, stranger
	}{
		{"zero", Filter{}, [3]bool{true, true, true}},
		{"provider", Filter{Providers: []string{ProviderCodex}}, [3]bool{false, false, true}},
		{"session", Filter{Sessions: []SessionID{sub}}, [3]bool{false, true, false}},
		{"root", Filter{RootSessions: []SessionID{root}}, [3]bool{true, true, false}},
		{"workspace prefix, not a sibling", Filter{Workspace: "/a/b/"}, [3]bool{true, true, false}},
		{"primary only", Filter{PrimaryOnly: true}, [3]bool{true, false, true}},
		{"source root or group", Filter{SourceRoots: []string{"work"}, SourceGroups: []string{"team"}}, [3]bool{true, true, false}},
		{"no source never matches a selector", Filter{SourceRoots: []string{""}}, [3]bool{false, false, false}},
		{"and across fields", Filter{Providers: []string{ProviderClaude}, PrimaryOnly: true}, [3]bool{true, false, false}},
	}
	for _, tt := range tests {
		m := tt.f.Compile()
		for i, s := range []SessionFacts{primary, subagent, stranger} {
			if got := m.Session(s); got != tt.want[i] {
				t.Errorf("%s: session %d = %v, want %v", tt.name, i, got, tt.want[i])
			}
		}
		if tt.f.SessionLevel() == (tt.name == "zero") {
			t.Errorf("%s: SessionLevel = %v", tt.name, tt.f.SessionLevel())
		}
	}
	var none *Match
	if !none.Session(stranger) || !none.Event(&Event{}) {
		t.Fatal("a nil Match must match everything")
	}
}

func TestMatchTimes(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	m := (&Filter{Since: t0, Until: t0.Add(time.Hour)}).Compile()
	for _, c := range []struct {
		at   time.Time
		want bool
	}{{t0, true}, {t0.Add(59 * time.Minute), true}, {t0.Add(time.Hour), false}, {t0.Add(-time.Second), false}, {time.Time{}, false}} {
		if got := m.Time(c.at); got != c.want {
			t.Errorf("Time(%v) = %v, want %v", c.at, got, c.want)
		}
	}
	// A session passes when it was active in the window.
	if !m.Span(t0.Add(-time.Hour), t0) || !m.Span(t0.Add(30*time.Minute), t0.Add(3*time.Hour)) {
		t.Error("an overlapping session must pass")
	}
	if m.Span(t0.Add(time.Hour), t0.Add(2*time.Hour)) || m.Span(time.Time{}, time.Time{}) {
		t.Error("a session after the window, or with no start, must not pass")
	}
	if !(&Filter{}).Compile().Span(time.Time{}, time.Time{}) {
		t.Error("no bound: every session passes")
	}
}

func TestMatchEvent(t *testing.T) {
	m := (&Filter{Types: []EventType{TypeToolCall}, Roles: []Role{RoleAssistant}, Files: []string{"main.go"}}).Compile()
	edit := &Event{Type: TypeToolCall, Role: RoleAssistant, Files: []FileTouch{{Path: "/src/cmd/main.go"}}}
	moved := &Event{Type: TypeToolCall, Role: RoleAssistant, Files: []FileTouch{{Path: "/src/old.go", MovedTo: "/src/main.go"}}}
	for name, e := range map[string]*Event{"by base name": edit, "by the new name of a move": moved} {
		if !m.Event(e) {
			t.Errorf("%s: not matched", name)
		}
	}
	for name, e := range map[string]*Event{
		"other file": {Type: TypeToolCall, Role: RoleAssistant, Files: []FileTouch{{Path: "/src/main.go.bak"}}},
		"other type": {Type: TypeMessage, Role: RoleAssistant, Files: edit.Files},
		"other role": {Type: TypeToolCall, Role: RoleUser, Files: edit.Files},
		"no files":   {Type: TypeToolCall, Role: RoleAssistant},
	} {
		if m.Event(e) {
			t.Errorf("%s: matched", name)
		}
	}
}

func TestFileTerms(t *testing.T) {
	got := FileTerms([]FileTouch{{Path: `C:\src\a.go`}, {Path: "/x/a.go", MovedTo: "/y/b.go"}, {Path: "/x/a.go"}})
	want := []string{`C:\src\a.go`, "a.go", "/x/a.go", "/y/b.go", "b.go"}
	if len(got) != len(want) {
		t.Fatalf("FileTerms = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("FileTerms = %q, want %q", got, want)
		}
	}
}
