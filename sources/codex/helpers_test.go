package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
)

func TestParseShellOutput(t *testing.T) {
	tests := []struct {
		name, in, text string
		exit           int // -1: none
		running        bool
	}{
		{"0.3x json", `{"output":"a\n","metadata":{"exit_code":2,"duration_seconds":0.1}}`, "a\n", 2, false},
		{"0.7x header", "Exit code: 127\nWall time: 0 seconds\nOutput:\nnot found\n", "not found\n", 127, false},
		{"truncated header", "Exit code: 0\nWall time: 1 seconds\nTotal output lines: 900\nOutput:\nx", "x", 0, false},
		{"exec_command", "Chunk ID: 9\nWall time: 0.2 seconds\nProcess exited with code 1\nOutput:\nE", "E", 1, false},
		{"running", "Process running with session ID 3\n\nOutput:\nwait", "wait", -1, true},
		{"sandbox", "failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: x",
			"failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: x", 2, false},
		{"plain", "aborted by user", "aborted by user", -1, false},
		{"not a header", "Output:\nx", "Output:\nx", -1, false},
		{"json without output", `{"a":1}`, `{"a":1}`, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := parseShellOutput(tt.in)
			exit := -1
			if res.exit != nil {
				exit = *res.exit
			}
			if res.text != tt.text || exit != tt.exit || res.running != tt.running {
				t.Errorf("got %q exit %d running %v, want %q %d %v", res.text, exit, res.running, tt.text, tt.exit, tt.running)
			}
		})
	}
}

func TestShellCommand(t *testing.T) {
	tests := []struct{ name, args, cmd, patch string }{
		{"argv script", `{"command":["bash","-lc","ls -la"],"timeout_ms":120000}`, "ls -la", ""},
		{"argv words", `{"command":["rg","-n","a b"]}`, "rg -n 'a b'", ""},
		{"zsh path", `{"command":["/bin/zsh","-c","pwd"]}`, "pwd", ""},
		{"argv apply_patch", `{"command":["apply_patch","*** Begin Patch\n*** End Patch"]}`, "", "*** Begin Patch\n*** End Patch"},
		{"shell_command", `{"command":"ls src","workdir":"/w"}`, "ls src", ""},
		{"exec_command", `{"cmd":"go test ./...","yield_time_ms":1000}`, "go test ./...", ""},
		{"not json", `ls`, "ls", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, patch := shellCommand(tt.args)
			if cmd != tt.cmd || patch != tt.patch {
				t.Errorf("got %q / %q, want %q / %q", cmd, patch, tt.cmd, tt.patch)
			}
		})
	}
}

func TestMCPName(t *testing.T) {
	tests := []struct{ name, namespace, server, tool string }{
		{"task-master-ai__next_task", "", "task-master-ai", "next_task"},
		{"mcp__github__create_issue", "", "github", "create_issue"},
		{"mcp__gh__a__b", "", "gh", "a__b"},
		{"search", "mcp__docs", "docs", "search"},
		{"search", "mcp__docs__", "docs", "search"},
		{"shell_command", "", "", ""},
		{"update_plan", "", "", ""},
		{"__x", "", "", ""},
		{"x__", "", "", ""},
	}
	for _, tt := range tests {
		server, tool, ok := mcpName(tt.name, tt.namespace)
		if server != tt.server || tool != tt.tool || ok != (tt.server != "") {
			t.Errorf("mcpName(%q, %q) = %q %q %v", tt.name, tt.namespace, server, tool, ok)
		}
	}
}

func TestClip(t *testing.T) {
	s := "aé" // 'é' is two bytes
	if got := core.Clip(s, 2); got != "a…" {
		t.Errorf("clip cut a rune: %q", got)
	}
	if got := core.Clip(s, 3); got != s {
		t.Errorf("clip shortened a short string: %q", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(metaLine + "\n" + userLine("2025-12-15T11:00:36Z", "hi") + "\n"))
	f.Add([]byte(`{"id":"x","timestamp":"2025"}` + "\n" + `{"record_type":"state"}` + "\n[]\n\x00"))
	f.Add([]byte(`{"type":"function_call","name":"shell","arguments":"{\"command\":[\"apply_patch\",\"*** Begin Patch\\n*** Add File: a\\n+x\"]}","call_id":"c"}` + "\n" +
		`{"type":"function_call_output","call_id":"c","output":{"content":"x","success":false}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"","invocation":{"server":"s","tool":"t"},"result":7}}`))
	if dir, err := findFixtures(); err == nil {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(path) == ".jsonl" {
				if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
					f.Add(data)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: core.ProviderCodex, Path: "fuzz.jsonl"})
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

func BenchmarkParse(b *testing.B) {
	dir := fixtureDir(b)
	var data []byte
	for _, fx := range fixtures {
		d, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(fx.rel)))
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d...)
	}
	lines := bytes.Count(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	n := 0
	for b.Loop() {
		if _, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: core.ProviderCodex}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(lines*n)/b.Elapsed().Seconds(), "lines/s")
}
