package cursor

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ctx/core"
)

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{`1783397624574`, time.Date(2026, 7, 7, 4, 13, 44, 574e6, time.UTC)},
		{`"1783397624574"`, time.Date(2026, 7, 7, 4, 13, 44, 574e6, time.UTC)},
		{`"2026-07-07T04:13:44.885Z"`, time.Date(2026, 7, 7, 4, 13, 44, 885e6, time.UTC)},
		{`"2026-07-07T09:43:44+05:30"`, time.Date(2026, 7, 7, 4, 13, 44, 0, time.UTC)},
		{`null`, time.Time{}},
		{`"soon"`, time.Time{}},
		{`-5`, time.Time{}},
		{`1e300`, time.Time{}},
		{`{}`, time.Time{}},
	}
	for _, tt := range tests {
		got := parseTime([]byte(tt.in))
		if !got.Equal(tt.want) || (!got.IsZero() && got.Location() != time.UTC) {
			t.Errorf("parseTime(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestUnifiedPatch(t *testing.T) {
	tests := []struct {
		name  string
		lines []diffLine
		want  string
	}{
		{"empty", nil, ""},
		{"new file", []diffLine{{Type: "added", Text: "a", New: 1}, {Type: "added", Text: "b", New: 2}},
			"--- f\n+++ f\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"deleted lines", []diffLine{{Type: "removed", Text: "a", Old: 1}, {Type: "unchanged", Text: "b", Old: 2, New: 1}},
			"--- f\n+++ f\n@@ -1,2 +1,1 @@\n-a\n b\n"},
		{"two hunks", []diffLine{{Type: "added", Text: "x", New: 1}, {Type: "unchanged", Text: "k", Old: 20, New: 21},
			{Type: "removed", Text: "r", Old: 21}}, "--- f\n+++ f\n@@ -0,0 +1,1 @@\n+x\n@@ -20,2 +21,1 @@\n k\n-r\n"},
		{"unknown types skipped", []diffLine{{Type: "moved", Text: "?"}, {Type: "added", Text: "a", New: 1}},
			"--- f\n+++ f\n@@ -0,0 +1,1 @@\n+a\n"},
	}
	for _, tt := range tests {
		if got := unifiedPatch("f", tt.lines); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestNewSide(t *testing.T) {
	tests := []struct {
		name  string
		lines []diffLine
		want  string
		ok    bool
	}{
		{"complete", []diffLine{{Type: "added", Text: "a", New: 1}, {Type: "unchanged", Text: "", Old: 1, New: 2}}, "a\n", true},
		{"gap", []diffLine{{Type: "added", Text: "a", New: 1}, {Type: "added", Text: "c", New: 3}}, "", false},
		{"removal", []diffLine{{Type: "removed", Text: "a", Old: 1}}, "", false},
		{"empty", nil, "", false},
	}
	for _, tt := range tests {
		if got, ok := newSide(tt.lines); got != tt.want || ok != tt.ok {
			t.Errorf("%s: got %q %v", tt.name, got, ok)
		}
	}
}

func TestRenderArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":"two words","a":[1, 2],"c":{"d":null}}`, "b: two words\na: [1,2]\nc: {\"d\":null}"},
		{`{}`, ""},
		{`not json`, "not json"},
		{`"text"`, "text"},
		{`{"a":`, `{"a":`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := renderArgs([]byte(tt.in)); got != tt.want {
			t.Errorf("renderArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPaths(t *testing.T) {
	uris := map[string]string{
		"file:///home/u/project":           "/home/u/project",
		"file:///c%3A/Users/u/app":         "c:/Users/u/app",
		"vscode-remote://ssh-remote+h/srv": "",
		"%zz":                              "",
	}
	for in, want := range uris {
		if got := uriPath(in); got != want {
			t.Errorf("uriPath(%q) = %q, want %q", in, got, want)
		}
	}
	joins := []struct{ ws, p, want string }{
		{"/w", "a/b.go", "/w/a/b.go"},
		{"/w/", "a.go", "/w/a.go"},
		{"/w", "/abs.go", "/abs.go"},
		{`c:\w`, `src\a.ts`, `c:\w\src\a.ts`},
		{`c:\w`, `d:\x.ts`, `d:\x.ts`},
		{"", "rel.go", "rel.go"},
	}
	for _, tt := range joins {
		if got := joinPath(tt.ws, tt.p); got != tt.want {
			t.Errorf("joinPath(%q, %q) = %q, want %q", tt.ws, tt.p, got, tt.want)
		}
	}
}

func TestMCPIdentity(t *testing.T) {
	tests := []struct{ name, args, server, tool, text string }{
		{"mcp_github_create_issue", `{"tools":[{"name":"create_issue","serverName":"github","parameters":"{\"a\":1}"}]}`, "github", "create_issue", `{"a":1}`},
		{"mcp_my_server_tool", `{"q":1}`, "my", "server_tool", `{"q":1}`},
		{"mcp", `{"serverName":"s","toolName":"t"}`, "s", "t", `{"serverName":"s","toolName":"t"}`},
		{"tool_19", ``, "", "tool_19", ``},
	}
	for _, tt := range tests {
		server, tool, args := mcpIdentity(&call{name: tt.name, args: []byte(tt.args)})
		if server != tt.server || tool != tt.tool || string(args) != tt.text {
			t.Errorf("mcpIdentity(%s) = %q %q %s", tt.name, server, tool, args)
		}
	}
}

func FuzzParse(f *testing.F) {
	var seed []row
	seed = append(seed, toolRows()...)
	seed = append(seed, badRows()...)
	f.Add([]byte(exportOf(f, seed)))
	f.Add([]byte(exportOf(f, []row{composerRow("c", `"subagentComposerIds":["c"]`, "u"), bubbleRow("c", "u", userBubble)})))
	f.Add([]byte(`{"table":"ItemTable","key":"aiService.prompts","value":"[{\"text\":\"x\"}]"}` + "\n\x00"))
	if dir, err := findFixtures(); err == nil {
		if data, err := os.ReadFile(filepath.Join(dir, "globalStorage-2026", "cursorDiskKV.rows.jsonl")); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseExport(bytes.NewReader(data), core.SourceFile{Provider: ProviderID, Path: "fuzz.jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Sessions {
			if s.Session.EventCount != len(s.Events) || s.Session.ID.IsZero() {
				t.Fatalf("session %+v not finalized", s.Session)
			}
		}
	})
}

func TestRichTextFallback(t *testing.T) {
	doc := `{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"first"}]},` +
		`{"type":"paragraph","content":[{"type":"text","text":"second "},{"type":"text","text":"line"}]}]}`
	lexical := `{"root":{"children":[{"children":[{"text":"a","type":"text"},{"type":"linebreak"},{"text":"b","type":"text"}],"type":"paragraph"}]}}`
	tests := []struct{ name, bubble, want string }{
		{"prosemirror", `{"type":1,"text":"","richText":` + jsonQuote(doc) + `}`, "first\nsecond line"},
		{"lexical", `{"type":1,"richText":` + jsonQuote(lexical) + `}`, "a\nb"},
		{"text wins", `{"type":1,"text":"plain","richText":` + jsonQuote(doc) + `}`, "plain"},
		{"bad rich text", `{"type":1,"richText":"{"}`, ""},
	}
	for _, tt := range tests {
		var bu bubble
		if err := json.Unmarshal([]byte(tt.bubble), &bu); err != nil {
			t.Fatal(err)
		}
		if got := bu.plainText(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
