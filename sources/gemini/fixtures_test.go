package gemini

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

const (
	// ticketingRoot is the content of tmp/ticketing-vc/.project_root (and
	// the projects.json key): Gemini CLI lowercases roots on Windows.
	ticketingRoot = `c:\beta-project\vibe engineering\ticketing-vc`
	// ticketingAbs is the root as the tools resolved it.
	ticketingAbs = `C:\Beta-Project\Vibe Engineering\ticketing-VC`
	legacyHash   = "596d3688fee3b82f59f4aa1d0b90f625ade4afad4f1c4d84b80bd2f4141260aa"
)

// fixtureFacts are facts read by hand from each real chat.
type fixtureFacts struct {
	rel        string
	native     string
	workspace  string
	model      string
	started    string
	ended      string
	prompts    []string // prefixes of the user prompts, in order
	assistant  int      // assistant messages with text
	reasoning  int
	notices    map[string]int // info/warning/error events by type
	exits      []int          // command finish exit codes in order, -1 unknown
	commands   []string       // command prefixes in order
	tools      map[string]int // tool_call events by tool
	mcp        []string       // server/tool of MCP calls in order
	mcpErrors  int
	companions []string
}

var fixtures = []fixtureFacts{
	{
		rel:       "tmp/" + legacyHash + "/chats/session-2025-09-16T20-39-38d857b1.json",
		native:    "38d857b1-d6e1-40bd-9008-9cdef5fb73d2",
		model:     "gemini-2.5-pro",
		started:   "2025-09-16T20:40:32.382Z",
		ended:     "2025-09-16T23:06:44.803Z",
		prompts:   []string{"we are in a tpu sandbox environemnt", "we are in us-central2", `run "`},
		assistant: 27, reasoning: 27,
		companions: []string{"projects.json"},
	},
	{
		rel:       "tmp/ticketing-vc/chats/session-2026-04-25T08-23-e435870b.jsonl",
		native:    "e435870b-a192-4f84-bd7e-1ec28e9c2f31",
		workspace: ticketingRoot,
		model:     "gemini-3.1-pro-preview-customtools",
		started:   "2026-04-25T08:23:24.509Z",
		ended:     "2026-04-25T08:32:49.547Z",
		prompts:   []string{"can you connect to postgrest on mcp list", "check yout connection to the postgres", "clear"},
		assistant: 1, reasoning: 4,
		notices:    map[string]int{"info": 6, "error": 1},
		exits:      []int{1, -1, 0, 0, 0, 0},
		commands:   []string{"mcp list", "gemini mcp list", "docker ps", `docker exec postgres psql -U postgres -d postgres -c "\dn"`, "docker exec postgres psql -U postgres -l", "docker exec postgres psql -U postgres -d postgres -c \"CREATE SCHEMA"},
		tools:      map[string]int{"read_file": 1},
		companions: []string{"tmp/ticketing-vc/.project_root"},
	},
	{
		rel:       "tmp/ticketing-vc/chats/session-2026-04-25T08-41-3494a697.jsonl",
		native:    "3494a697-74ae-4441-a15b-0d9c80154b8b",
		workspace: ticketingRoot,
		model:     "gemini-3-flash-preview",
		started:   "2026-04-25T08:41:35.150Z",
		ended:     "2026-04-25T08:44:49.099Z",
		prompts:   []string{"test connection to db postgres and check if schema vibecode exist", "asd"},
		assistant: 6,
		notices:   map[string]int{"info": 1},
		tools: map[string]int{"mcp_postgresql_database_overview": 1, "mcp_postgresql_list_schemas": 3,
			"mcp_postgresql_execute_sql": 2},
		mcp: []string{"postgresql/database_overview", "postgresql/list_schemas", "postgresql/list_schemas",
			"postgresql/execute_sql", "postgresql/execute_sql", "postgresql/list_schemas"},
		companions: []string{"tmp/ticketing-vc/.project_root"},
	},
	{
		rel:       "tmp/ticketing-vc/chats/session-2026-04-25T08-46-c737eb36.jsonl",
		native:    "c737eb36-0f7f-466b-8044-9cb1f572378f",
		workspace: ticketingRoot,
		model:     "gemini-3-flash-preview",
		started:   "2026-04-25T08:46:12.046Z",
		ended:     "2026-04-25T08:59:04.498Z",
		prompts: []string{"check connection to current git remote", "no push everything", "yes",
			"let's jump to backend system development", "continue to scaffold core JPA Entities", "ensure the table exist"},
		assistant: 22, reasoning: 9,
		notices:  map[string]int{"info": 1},
		exits:    []int{1, 0, 0, 1, 0, 0, 0},
		commands: []string{"git remote -v && git status", "git remote -v; git status", "git commit -m", "git push origin main", "git rm --cached", "git push origin main", "$basePath = "},
		tools: map[string]int{"read_file": 2, "replace": 1, "write_file": 11, "mcp_postgresql_list_tables": 1,
			"mcp_postgresql_execute_sql": 10},
		mcp:        append([]string{"postgresql/list_tables"}, repeat("postgresql/execute_sql", 10)...),
		mcpErrors:  1,
		companions: []string{"tmp/ticketing-vc/.project_root"},
	},
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func parseFixture(t *testing.T, dir, rel string) core.ParsedSession {
	t.Helper()
	res, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: filepath.Join(dir, filepath.FromSlash(rel))})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 {
		t.Errorf("problems %v", res.Problems)
	}
	return only(t, res)
}

func TestFixtures(t *testing.T) {
	dir := fixtureDir(t)
	for _, fx := range fixtures {
		t.Run(filepath.Base(fx.rel), func(t *testing.T) {
			ps := parseFixture(t, dir, fx.rel)
			checkSession(t, ps, fx)
			checkCounts(t, ps, fx)
			checkCommands(t, ps, fx)
			checkMCP(t, ps, fx)
		})
	}
}

func checkSession(t *testing.T, ps core.ParsedSession, fx fixtureFacts) {
	t.Helper()
	s := ps.Session
	if s.NativeID != fx.native || s.ID != core.NewSessionID(ProviderID, fx.native) || s.Provider != ProviderID {
		t.Errorf("session %q %s, want %q", s.NativeID, s.ID, fx.native)
	}
	if s.Workspace != fx.workspace || s.Model != fx.model || s.IsSubagent || s.RootSessionID != s.ID {
		t.Errorf("workspace %q model %q subagent %v", s.Workspace, s.Model, s.IsSubagent)
	}
	started, _ := time.Parse(time.RFC3339Nano, fx.started)
	ended, _ := time.Parse(time.RFC3339Nano, fx.ended)
	if !s.Started.Equal(started) || !s.Ended.Equal(ended) {
		t.Errorf("started %s ended %s, want %s %s", s.Started, s.Ended, fx.started, fx.ended)
	}
}

func checkCounts(t *testing.T, ps core.ParsedSession, fx fixtureFacts) {
	t.Helper()
	var prompts []string
	assistant, notices, tools := 0, map[string]int{}, map[string]int{}
	for _, e := range ps.Events {
		switch {
		case e.Type == core.TypeMessage && e.Role == core.RoleUser:
			prompts = append(prompts, e.Text)
		case e.Type == core.TypeMessage && e.Role == core.RoleAssistant:
			assistant++
		case e.Type == core.TypeOther:
			notices[e.Native]++
		case e.Type == core.TypeToolCall:
			tools[e.Tool]++
		}
	}
	if len(prompts) != len(fx.prompts) {
		t.Fatalf("prompts %q, want %q", prompts, fx.prompts)
	}
	for i, p := range fx.prompts {
		if !strings.HasPrefix(prompts[i], p) {
			t.Errorf("prompt %d %q, want prefix %q", i, prompts[i], p)
		}
	}
	if r := len(byType(ps, core.TypeReasoning)); assistant != fx.assistant || r != fx.reasoning {
		t.Errorf("assistant %d reasoning %d, want %d %d", assistant, r, fx.assistant, fx.reasoning)
	}
	if len(notices) != len(fx.notices) || (len(notices) > 0 && !reflect.DeepEqual(notices, fx.notices)) {
		t.Errorf("notices %v, want %v", notices, fx.notices)
	}
	if len(tools) != len(fx.tools) || (len(tools) > 0 && !reflect.DeepEqual(tools, fx.tools)) {
		t.Errorf("tools %v, want %v", tools, fx.tools)
	}
}

func checkCommands(t *testing.T, ps core.ParsedSession, fx fixtureFacts) {
	t.Helper()
	starts, finishes := byType(ps, core.TypeCommandStart), byType(ps, core.TypeCommandFinish)
	if len(starts) != len(fx.commands) || len(finishes) != len(fx.exits) {
		t.Fatalf("%d starts %d finishes, want %d %d", len(starts), len(finishes), len(fx.commands), len(fx.exits))
	}
	for i, c := range fx.commands {
		if !strings.HasPrefix(starts[i].Command, c) || starts[i].Text != starts[i].Command {
			t.Errorf("command %d %q, want prefix %q", i, starts[i].Command, c)
		}
	}
	for i, want := range fx.exits {
		got := -1
		if finishes[i].ExitCode != nil {
			got = *finishes[i].ExitCode
		}
		if got != want || finishes[i].CallID != starts[i].CallID || finishes[i].IsError != (want != 0) {
			t.Errorf("finish %d exit %d error %v call %s, want %d for %s", i, got, finishes[i].IsError,
				finishes[i].CallID, want, starts[i].CallID)
		}
	}
}

func checkMCP(t *testing.T, ps core.ParsedSession, fx fixtureFacts) {
	t.Helper()
	var calls []string
	errs := 0
	for _, e := range ps.Events {
		if e.Activity == nil {
			continue
		}
		inv := e.Activity.Invocation
		if inv.Protocol != "mcp" || inv.ProviderCallID != e.CallID || inv.Arguments != core.CaptureCaptured ||
			inv.Result != core.CaptureCaptured {
			t.Errorf("event %d invocation %+v", e.Ordinal, inv)
		}
		if e.Type == core.TypeToolCall {
			calls = append(calls, inv.Server+"/"+inv.Tool)
		} else if e.IsError {
			errs++
		}
	}
	if len(calls) != len(fx.mcp) || (len(calls) > 0 && !reflect.DeepEqual(calls, fx.mcp)) || errs != fx.mcpErrors {
		t.Errorf("mcp calls %v (%d errors), want %v (%d)", calls, errs, fx.mcp, fx.mcpErrors)
	}
}

// TestFixtureEdits checks the file edits of the trimmed c737eb36 chat: a
// replace in build.gradle, an overwrite and ten new files, with the paths
// Gemini CLI resolved.
func TestFixtureEdits(t *testing.T) {
	ps := parseFixture(t, fixtureDir(t), fixtures[3].rel)
	var edits, reads []core.FileTouch
	for _, e := range ps.Events {
		for _, f := range e.Files {
			if f.Op == core.OpRead {
				reads = append(reads, f)
			} else {
				edits = append(edits, f)
			}
		}
	}
	if len(reads) != 2 || reads[0].Path != "README.md" || reads[1].Path != "build.gradle" {
		t.Errorf("reads %+v", reads)
	}
	if len(edits) != 12 {
		t.Fatalf("%d edits, want 12", len(edits))
	}
	want := core.FileTouch{Path: ticketingAbs + `\build.gradle`, Op: core.OpEdit,
		OldText: "    implementation 'org.springframework.boot:spring-boot-starter-webmvc'",
		NewText: "    implementation 'org.springframework.boot:spring-boot-starter-web'\n    implementation 'org.springframework.boot:spring-boot-starter-data-jpa'"}
	if edits[0] != want {
		t.Errorf("replace %+v\nwant %+v", edits[0], want)
	}
	if w := edits[1]; w.Op != core.OpWrite || w.Path != ticketingAbs+`\src\main\resources\application.properties` ||
		!strings.HasPrefix(w.NewText, "spring.application.name=ticketing-VC\n\n# PostgreSQL Configuration") {
		t.Errorf("write %+v", w)
	}
	tier := core.FileTouch{Path: ticketingAbs + `\src\main\java\wingorithm\ticketing\vibecoding\domain\customer\CustomerTier.java`,
		Op: core.OpCreate, NewText: "package wingorithm.ticketing.vibecoding.domain.customer;\n\npublic enum CustomerTier {\n    BEGINNER, FANS, LOVERS\n}\n"}
	if edits[2] != tier {
		t.Errorf("create %+v\nwant %+v", edits[2], tier)
	}
	for _, e := range edits[2:] {
		if e.Op != core.OpCreate || !strings.HasPrefix(e.Path, ticketingAbs+`\src\main\java\wingorithm\`) || e.NewText == "" {
			t.Errorf("create %+v", e)
		}
	}
}

// TestFixtureCancelledShell checks the run_shell_command the user denied:
// its output is the cancellation error and it has no exit code.
func TestFixtureCancelledShell(t *testing.T) {
	ps := parseFixture(t, fixtureDir(t), fixtures[1].rel)
	for _, e := range ps.Events {
		if e.CallID != "mt5u63mc" || e.Type != core.TypeCommandOutput {
			continue
		}
		if e.Text != "[Operation Cancelled] Reason: User denied execution." || !e.IsError {
			t.Errorf("cancelled output %+v", e)
		}
		return
	}
	t.Fatal("cancelled call mt5u63mc not found")
}

// TestFixturePrefixesKeepIDs re-parses every prefix of each JSONL chat (a
// live log read while it grows): every event of a prefix keeps its id in
// the whole file.
func TestFixturePrefixesKeepIDs(t *testing.T) {
	dir := fixtureDir(t)
	for _, fx := range fixtures[1:] {
		t.Run(filepath.Base(fx.rel), func(t *testing.T) {
			data := readFile(t, filepath.Join(dir, filepath.FromSlash(fx.rel)))
			full := only(t, parseBytes(t, data, fx.rel))
			ids := map[core.EventID]bool{}
			for _, e := range full.Events {
				ids[e.ID] = true
			}
			for end := 0; end < len(data); end++ {
				if data[end] != '\n' {
					continue
				}
				prefix := only(t, parseBytes(t, data[:end+1], fx.rel))
				for _, e := range prefix.Events {
					if !ids[e.ID] {
						t.Fatalf("prefix to byte %d: event %q (%s) not in the whole file", end, e.Key, e.Type)
					}
				}
			}
		})
	}
}

// TestFixtureDiscovery lists the fixture folder as a configured root: the
// four chats, each with the file its workspace comes from.
func TestFixtureDiscovery(t *testing.T) {
	dir := fixtureDir(t)
	files, problems := New().DiscoverIn(dir)
	if len(problems) != 0 {
		t.Errorf("problems %v", problems)
	}
	if len(files) != len(fixtures) {
		t.Fatalf("files %v, want %d", files, len(fixtures))
	}
	for i, fx := range fixtures {
		want := core.SourceFile{Provider: ProviderID, Path: filepath.Join(dir, filepath.FromSlash(fx.rel))}
		for _, c := range fx.companions {
			want.Companions = append(want.Companions, filepath.Join(dir, filepath.FromSlash(c)))
		}
		if !reflect.DeepEqual(files[i], want) {
			t.Errorf("file %d %+v, want %+v", i, files[i], want)
		}
	}
}
