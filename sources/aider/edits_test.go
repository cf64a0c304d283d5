package aider

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

func TestSearchReplace(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []core.FileTouch
	}{
		{"path before fence", "a/b.go\n```go\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```",
			[]core.FileTouch{{Path: "a/b.go", Op: core.OpEdit, OldText: "old\n", NewText: "new\n"}}},
		{"path inside fence", "````markdown\nREADME.md\n<<<<<<< SEARCH\n=======\n# Title\n>>>>>>> REPLACE\n````",
			[]core.FileTouch{{Path: "README.md", Op: core.OpEdit, NewText: "# Title\n"}}},
		{"decorated name, reused", "**`x.py`**:\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nc\n=======\n>>>>>>> REPLACE",
			[]core.FileTouch{{Path: "x.py", Op: core.OpEdit, OldText: "a\n", NewText: "b\n"}, {Path: "x.py", Op: core.OpEdit, OldText: "c\n"}}},
		{"fence with name", "```src/x.ts\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```",
			[]core.FileTouch{{Path: "src/x.ts", Op: core.OpEdit, OldText: "a\n", NewText: "b\n"}}},
		{"tolerant markers", "f.c\n<<<<<<<<< SEARCH>\na\n=========\nb\n>>>>> REPLACE",
			[]core.FileTouch{{Path: "f.c", Op: core.OpEdit, OldText: "a\n", NewText: "b\n"}}},
		{"no name", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE", nil},
		{"unterminated", "f.c\n<<<<<<< SEARCH\na\n=======\nb", nil},
		{"markers mid-line", "f.c\n3. The start: <<<<<<< SEARCH\n=======", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []core.FileTouch
			for _, e := range searchReplace(strings.Split(tt.text, "\n")) {
				got = append(got, e.touch)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestUnifiedDiffAndWhole(t *testing.T) {
	udiff := "Here:\n```diff\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 2\n--- old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n```\n"
	got := unifiedDiffs(strings.Split(udiff, "\n"))
	want := []edit{
		{toolUnifiedDiff, core.FileTouch{Path: "m.py", Op: core.OpPatch, Patch: "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 2\n"}},
		{toolUnifiedDiff, core.FileTouch{Path: "old.py", Op: core.OpDelete, Patch: "--- old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("udiff\n got %+v\nwant %+v", got, want)
	}
	whole := "Here is the new file:\n\nhello.py\n```python\nprint('hi')\n```\n\nFor example:\n```\nnot a file\n```"
	got = wholeFiles(strings.Split(whole, "\n"))
	want = []edit{{toolWholeFile, core.FileTouch{Path: "hello.py", Op: core.OpWrite, NewText: "print('hi')\n"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("whole\n got %+v\nwant %+v", got, want)
	}
}

// TestEditFormats checks that diff and whole-file blocks are read only in
// sessions whose banner names that edit format.
func TestEditFormats(t *testing.T) {
	reply := "m.py\n```python\nx = 2\n```\n\n```diff\n--- m.py\n+++ m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n```"
	tests := []struct {
		banner string
		ops    []string
	}{
		{"> Main model: gpt-4o with udiff edit format", []string{core.OpPatch}},
		{"> Model: gpt-3.5 with whole edit format", []string{core.OpWrite}},
		{"> Model: o1 with architect edit format\n> Editor model: gpt-4o with editor-whole edit format", []string{core.OpWrite}},
		{"> Main model: sonnet with diff edit format", nil},
	}
	for _, tt := range tests {
		res := parseText(t, chat("# aider chat started at 2025-06-02 11:47:49", tt.banner, "#### go", reply), "f.md")
		var ops []string
		for _, e := range byType(res.Sessions[0], core.TypeToolCall) {
			ops = append(ops, e.Files[0].Op)
		}
		if !reflect.DeepEqual(ops, tt.ops) {
			t.Errorf("%s: ops %v, want %v", tt.banner, ops, tt.ops)
		}
	}
}

func TestCommands(t *testing.T) {
	log := chat("# aider chat started at 2025-06-02 11:47:49", "> Aider v0.84.0",
		"#### /run go test ./...", "> ok  \tctx\t0.1s\n> exit status 1", "> Added 2 lines of output to the chat.",
		"#### !ls -la", "> Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: n",
		"#### /test make check",
		"Run the tests:\n\n```bash\nnpm test\n```",
		"> npm test\n> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y\n> Running npm test\n> Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y")
	s := parseText(t, log, "f.md").Sessions[0]
	var got []string
	for _, e := range s.Events {
		if e.Command != "" {
			got = append(got, string(e.Type)+":"+e.Command)
		}
		if e.Type == core.TypeCommandFinish && (e.ExitCode == nil || *e.ExitCode != 1 || !e.IsError) {
			t.Errorf("finish %+v", e)
		}
	}
	want := []string{"command_start:go test ./...", "command_output:go test ./...", "command_finish:go test ./...",
		"command_start:ls -la", "command_output:ls -la", "command_start:make check",
		"command_start:npm test", "command_output:npm test"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands\n got %v\nwant %v", got, want)
	}
	if out := byType(s, core.TypeToolOutput); len(out) != 1 || !strings.HasPrefix(out[0].Text, "npm test\nRun shell command?") {
		t.Errorf("tool output %q", texts(out))
	}
}

// TestReplyMarkdown checks that quotes and headings inside a reply stay in
// the reply, that a multi-line aider message continues to its break, and
// that a leading thinking section is reasoning.
func TestReplyMarkdown(t *testing.T) {
	log := chat("# aider chat started at 2025-06-02 11:47:49", "> Aider v0.84.0", "#### explain",
		"<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\nLet me think.\n\n</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\nAnswer:\n> a quote\n\n#### A heading\ntext") +
		"> Tokens: 1k sent.  \n> # 1 SEARCH/REPLACE block failed to match!\n\n## SearchReplaceNoExactMatch\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n\nJust fix it.  \n" +
		chat("Fixed.")
	s := parseText(t, log, "f.md").Sessions[0]
	var kinds []string
	for _, e := range s.Events {
		kinds = append(kinds, string(e.Type))
	}
	want := []string{"other", "message", "reasoning", "message", "tool_output", "message"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	if s.Events[2].Text != "Let me think." || s.Events[3].Text != "Answer:\n> a quote\n\n#### A heading\ntext" {
		t.Errorf("reasoning %q reply %q", s.Events[2].Text, s.Events[3].Text)
	}
	if out := s.Events[4]; !out.IsError || !strings.HasSuffix(out.Text, "Just fix it.") {
		t.Errorf("tool output %+v", out)
	}
}

func TestHelpers(t *testing.T) {
	cmds := map[string]string{"/run ls": "ls", "!pwd": "pwd", "/git log -1": "git log -1", "/test": "", "/add x.go": "", "! ": "", "/run a\nb": ""}
	for in, want := range cmds {
		if got, ok := userCommand(in); got != want || ok != (want != "") {
			t.Errorf("userCommand(%q) = %q %v", in, got, ok)
		}
	}
	times := map[string]string{"2025-06-02 11:47:49": "2025-06-02T11:47:49Z", "2025-06-02 11:47:49+02:00": "2025-06-02T09:47:49Z",
		"2025-06-02T11:47:49Z": "2025-06-02T11:47:49Z", "noon": ""}
	for in, want := range times {
		got, ok := headerTime(in)
		if ok != (want != "") || (ok && got.Format("2006-01-02T15:04:05Z07:00") != want) {
			t.Errorf("headerTime(%q) = %v %v, want %s", in, got, ok, want)
		}
	}
	errs := map[string]bool{"litellm.RateLimitError: slow down": true, "see https://docs.litellm.ai/docs/providers": false,
		"x litellm.APIConnectionError": true, "# 1 SEARCH/REPLACE block failed to match!": true, "Applied edit to a.go": false}
	for in, want := range errs {
		if got := isErrorOutput(in); got != want {
			t.Errorf("isErrorOutput(%q) = %v", in, got)
		}
	}
	reasoning := map[string][2]string{"<think>a</think>b": {"a", "b"}, "<thinking>x": {"x", ""},
		"<b>bold</b>": {"", "<b>bold</b>"}, "plain": {"", "plain"}}
	for in, want := range reasoning {
		if r, rest := splitReasoning(in); r != want[0] || rest != want[1] {
			t.Errorf("splitReasoning(%q) = %q %q", in, r, rest)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(chat("# aider chat started at 2025-06-02 11:47:49", "> Main model: x with udiff edit format", "#### hi",
		"f.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```diff\n--- a\n+++ b\n```", "> Running ls")))
	f.Add([]byte("> # 1 failed\n<<<<<<< SEARCH\n\x00\n#### x  \n# aider chat started at 2025-13-45 99:99:99\n<think>"))
	f.Add([]byte(chat("# aider chat started at 2025-06-02 11:47:49", "> Model: y with whole edit format", "#### /run x",
		"a.py\n```\n```\n````\nb.py\n```")))
	if dir, err := findFixtures(); err == nil {
		if data, err := readFile(dir + "/" + HistoryFile); err == nil {
			f.Add(data[:min(len(data), 16<<10)])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: ProviderID, Path: "fuzz.md"})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Sessions {
			if s.Session.EventCount != len(s.Events) || s.Session.ID.IsZero() {
				t.Fatalf("session %+v not finalized", s.Session)
			}
			for _, e := range s.Events {
				for _, ft := range e.Files {
					if ft.Path == "" || ft.Op == "" {
						t.Fatalf("file touch without path or op: %+v", ft)
					}
				}
			}
		}
	})
}
