package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures finds shared/fixtures/agents/codex by walking up from the
// working directory; the repository's sibling "shared" counts too.
func findFixtures() (string, error) {
	return sharedfx.Agent("codex")
}

// fixtureDir is findFixtures for tests: the real rollouts are required.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "codex")
	return dir
}

// fixtureFacts are facts read by hand from each real rollout.
type fixtureFacts struct {
	name      string
	rel       string
	native    string
	cwd       string
	branch    string
	model     string
	started   string
	prompts   []string // prefixes of the real user prompts, in order
	assistant int
	reasoning int
	injected  int
	starts    int        // command starts
	exits     []int      // command finish exit codes, in order
	patches   [][]string // paths of each apply_patch call
	created   string     // a file added by a patch, and the start of its content
	createdAt string
	tools     map[string]int // other tool calls by name
	mcp       []string       // server/tool of MCP calls
}

func zeros(n int) []int { return make([]int, n) }

func concat(parts ...[]int) []int {
	var out []int
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var fixtures = []fixtureFacts{
	{
		name: "legacy", rel: "legacy-pre-envelope/example.jsonl",
		native: "cf4def41-21e0-4b91-adb4-5397c1492084", cwd: "/home/user/projects/codex-session-viewer",
		branch: "main", started: "2025-09-10T18:58:38.331Z",
		prompts: []string{"What's the next task I should work on?", "check codebase to see progress on it",
			"instructions/devin.md instructions/UI-UX Expert.md", "prime context for the task"},
		assistant: 6, reasoning: 14, injected: 2, starts: 11, exits: zeros(11),
		mcp: []string{"task-master-ai/next_task", "task-master-ai/get_task"},
	},
	{
		name: "0.34 abandoned", rel: "sessions/2025/10/31/rollout-2025-10-31T18-36-16-fa1ac8bf-348e-4b9a-a06d-767050fa1e10.jsonl",
		native: "fa1ac8bf-348e-4b9a-a06d-767050fa1e10", cwd: "/home/randy/projects/python-3/OpenPrintKit",
		branch: "main", started: "2025-11-01T00:36:16.465Z", injected: 1,
	},
	{
		name: "0.34", rel: "sessions/2025/10/31/rollout-2025-10-31T19-02-58-c61729d4-da6d-46a4-9a29-ec2c614e5e23.jsonl",
		native: "c61729d4-da6d-46a4-9a29-ec2c614e5e23", cwd: "/home/randy/projects/python-3/OpenPrintKit",
		branch: "main", started: "2025-11-01T01:02:58.864Z",
		prompts: []string{"Can we continue from where we left off?", "proceed to add opk rules and opk workspace init",
			"yes p[lease", "yes do the quickstart"},
		assistant: 7, reasoning: 25, injected: 1, starts: 34,
		exits:   concat(zeros(23), []int{2, 2}, zeros(8)),
		patches: [][]string{{"opk/cli/__main__.py"}, {"README.md"}, {"docs/project-spec.md"}, {"tests/test_cli.py"}},
		created: "tests/test_cli.py", createdAt: "import sys\nfrom pathlib import Path\n",
	},
	{
		name: "0.72", rel: "sessions/2025/12/15/rollout-2025-12-15T12-00-35-019b21ab-55b8-7932-8d73-e85426fd3cad.jsonl",
		native: "019b21ab-55b8-7932-8d73-e85426fd3cad", cwd: "/home/ogekuri/useReq", branch: "master",
		model: "gpt-5.1-codex-max", started: "2025-12-15T11:00:35.384Z",
		prompts:   []string{"nello script python di usereq/req verifica", "rmuovi il fall-back sulla root del repo"},
		assistant: 2, reasoning: 28, injected: 1, starts: 19,
		exits: concat(zeros(13), []int{1, 127}, zeros(4)),
		patches: [][]string{{"src/usereq/cli.py"}, {"pyproject.toml"}, {"src/usereq/cli.py"},
			{"src/usereq/resources/vscode/settings.json"}},
		tools: map[string]int{"update_plan": 4},
	},
	{
		name: "0.70 vscode", rel: "sessions/2025/12/15/rollout-2025-12-15T14-40-50-019b223e-0dc7-7f72-94d5-2a5a495afaef.jsonl",
		native: "019b223e-0dc7-7f72-94d5-2a5a495afaef", cwd: "/home/ogekuri/useReq", branch: "master",
		model: "gpt-5.1-codex", started: "2025-12-15T13:40:50.759Z",
		prompts:   []string{"# Context from my IDE setup:"},
		assistant: 1, reasoning: 4, injected: 1, starts: 2, exits: []int{0, 0},
		patches: [][]string{{"README.md"}},
	},
}

func parseFixture(t *testing.T, path string) core.ParsedSession {
	t.Helper()
	res, err := New().Parse(core.SourceFile{Provider: core.ProviderCodex, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 {
		t.Errorf("problems in a real rollout: %v", res.Problems)
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("sessions = %d, want 1", len(res.Sessions))
	}
	return res.Sessions[0]
}

func TestFixtures(t *testing.T) {
	dir := fixtureDir(t)
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			path := filepath.Join(dir, filepath.FromSlash(fx.rel))
			ps := parseFixture(t, path)
			checkSession(t, fx, ps, path)
			checkContent(t, fx, ps)
			checkCommands(t, fx, ps)
			checkPatches(t, fx, ps)
			checkTools(t, fx, ps)
			checkUITwins(t, path, ps)
		})
	}
}

func checkSession(t *testing.T, fx fixtureFacts, ps core.ParsedSession, path string) {
	t.Helper()
	s := ps.Session
	started, _ := time.Parse(time.RFC3339Nano, fx.started)
	want := core.Session{NativeID: fx.native, Workspace: fx.cwd, GitBranch: fx.branch, Model: fx.model, Started: started}
	got := core.Session{NativeID: s.NativeID, Workspace: s.Workspace, GitBranch: s.GitBranch, Model: s.Model, Started: s.Started}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("session = %+v, want %+v", got, want)
	}
	if s.ID != core.NewSessionID(core.ProviderCodex, fx.native) || s.RootSessionID != s.ID || s.IsSubagent {
		t.Errorf("ids: %v root %v subagent %v", s.ID, s.RootSessionID, s.IsSubagent)
	}
	if s.Source != (core.SourceRef{Provider: core.ProviderCodex, Path: path}) || s.Provider != core.ProviderCodex {
		t.Errorf("source = %+v provider %q", s.Source, s.Provider)
	}
	if s.EventCount != len(ps.Events) || s.Ended.Before(s.Started) {
		t.Errorf("count %d/%d, started %v ended %v", s.EventCount, len(ps.Events), s.Started, s.Ended)
	}
	for _, e := range ps.Events {
		if e.Timestamp.IsZero() || e.Timestamp.Location() != time.UTC {
			t.Fatalf("event %d timestamp %v, want UTC and set", e.Ordinal, e.Timestamp)
		}
	}
}

func count(ps core.ParsedSession, keep func(core.Event) bool) []core.Event {
	var out []core.Event
	for _, e := range ps.Events {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

func checkContent(t *testing.T, fx fixtureFacts, ps core.ParsedSession) {
	t.Helper()
	users := count(ps, func(e core.Event) bool { return e.Type == core.TypeMessage && e.Role == core.RoleUser })
	if len(users) != len(fx.prompts) {
		t.Errorf("user messages = %d, want %d real prompts", len(users), len(fx.prompts))
	}
	for i := 0; i < len(users) && i < len(fx.prompts); i++ {
		if !strings.HasPrefix(users[i].Text, fx.prompts[i]) {
			t.Errorf("prompt %d = %.60q, want prefix %q", i, users[i].Text, fx.prompts[i])
		}
		if hasMarker(users[i].Text) {
			t.Errorf("injected context counted as a prompt: %.60q", users[i].Text)
		}
	}
	asst := count(ps, func(e core.Event) bool { return e.Type == core.TypeMessage && e.Role == core.RoleAssistant })
	rsn := count(ps, func(e core.Event) bool { return e.Type == core.TypeReasoning })
	inj := count(ps, func(e core.Event) bool { return e.Native == "injected_context" })
	if len(asst) != fx.assistant || len(rsn) != fx.reasoning || len(inj) != fx.injected {
		t.Errorf("assistant %d reasoning %d injected %d, want %d %d %d",
			len(asst), len(rsn), len(inj), fx.assistant, fx.reasoning, fx.injected)
	}
	for _, e := range asst {
		if e.Model != fx.model {
			t.Errorf("assistant model %q, want %q", e.Model, fx.model)
		}
	}
	for _, e := range inj {
		if e.Type != core.TypeOther || !hasMarker(e.Text) {
			t.Errorf("injected event %+v", e)
		}
	}
}

// checkCommands asserts that every command start is followed by its output
// and a finish carrying the exit code written in the file.
func checkCommands(t *testing.T, fx fixtureFacts, ps core.ParsedSession) {
	t.Helper()
	starts := count(ps, func(e core.Event) bool { return e.Type == core.TypeCommandStart })
	if len(starts) != fx.starts {
		t.Errorf("command starts = %d, want %d", len(starts), fx.starts)
	}
	var exits []int
	seen := map[string]core.EventType{}
	for _, e := range ps.Events {
		switch e.Type {
		case core.TypeCommandStart:
			if e.Command == "" || e.CallID == "" || e.Key != e.CallID {
				t.Errorf("command start %+v", e)
			}
		case core.TypeCommandOutput:
			if seen[e.CallID] != core.TypeCommandStart {
				t.Errorf("output of %s without its start", e.CallID)
			}
		case core.TypeCommandFinish:
			if seen[e.CallID] != core.TypeCommandOutput || e.ExitCode == nil || e.Key != e.CallID+"/finish" {
				t.Errorf("finish %+v out of order or without exit code", e)
				continue
			}
			exits = append(exits, *e.ExitCode)
			if e.IsError != (*e.ExitCode != 0) {
				t.Errorf("finish %s is_error %v with exit %d", e.CallID, e.IsError, *e.ExitCode)
			}
		default:
			continue
		}
		seen[e.CallID] = e.Type
	}
	if !reflect.DeepEqual(exits, fx.exits) && len(exits)+len(fx.exits) > 0 {
		t.Errorf("exit codes = %v, want %v", exits, fx.exits)
	}
}

func checkPatches(t *testing.T, fx fixtureFacts, ps core.ParsedSession) {
	t.Helper()
	var got [][]string
	for _, e := range ps.Events {
		if e.Type != core.TypeToolCall || e.Tool != "apply_patch" {
			continue
		}
		var paths []string
		for _, f := range e.Files {
			paths = append(paths, f.Path)
			if f.Patch == "" || (f.Op != "patch" && f.Op != "create") {
				t.Errorf("file touch %+v", f)
			}
			if f.Path == fx.created && (f.Op != "create" || !strings.HasPrefix(f.NewText, fx.createdAt)) {
				t.Errorf("created file %s: op %s content %.60q", f.Path, f.Op, f.NewText)
			}
		}
		got = append(got, paths)
	}
	if !reflect.DeepEqual(got, fx.patches) && len(got)+len(fx.patches) > 0 {
		t.Errorf("patches = %v, want %v", got, fx.patches)
	}
	outs := count(ps, func(e core.Event) bool { return e.Type == core.TypeToolOutput && e.Tool == "apply_patch" })
	for _, e := range outs {
		if e.ExitCode == nil || *e.ExitCode != 0 || !strings.HasPrefix(e.Text, "Success.") {
			t.Errorf("apply_patch output %+v", e)
		}
	}
	if len(outs) != len(fx.patches) {
		t.Errorf("apply_patch outputs = %d, want %d", len(outs), len(fx.patches))
	}
}

func checkTools(t *testing.T, fx fixtureFacts, ps core.ParsedSession) {
	t.Helper()
	tools := map[string]int{}
	var mcp []string
	for _, e := range ps.Events {
		if e.Type != core.TypeToolCall || e.Tool == "apply_patch" {
			continue
		}
		if a := e.Activity; a != nil {
			inv := a.Invocation
			mcp = append(mcp, inv.Server+"/"+inv.Tool)
			if inv.Protocol != "mcp" || inv.ProviderCallID != e.CallID || inv.Arguments != "captured" || inv.Result != "captured" {
				t.Errorf("mcp invocation %+v", inv)
			}
			continue
		}
		tools[e.Tool]++
	}
	if len(tools) == 0 {
		tools = nil
	}
	if !reflect.DeepEqual(tools, fx.tools) || !reflect.DeepEqual(mcp, fx.mcp) {
		t.Errorf("tools %v mcp %v, want %v %v", tools, mcp, fx.tools, fx.mcp)
	}
}

// checkUITwins reads the file's event_msg prompts and answers directly: each
// is one message, never two.
func checkUITwins(t *testing.T, path string, ps core.ParsedSession) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Type == "event_msg" {
			counts[l.Payload.Type]++
		}
	}
	if counts["user_message"] == 0 && counts["agent_message"] == 0 {
		return // legacy: no event messages
	}
	users := count(ps, func(e core.Event) bool { return e.Type == core.TypeMessage && e.Role == core.RoleUser })
	asst := count(ps, func(e core.Event) bool { return e.Type == core.TypeMessage && e.Role == core.RoleAssistant })
	if len(users) != counts["user_message"] || len(asst) != counts["agent_message"] {
		t.Errorf("messages user %d assistant %d, file has %d user_message and %d agent_message events",
			len(users), len(asst), counts["user_message"], counts["agent_message"])
	}
}
