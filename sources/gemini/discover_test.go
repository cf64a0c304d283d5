package gemini

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scratchGemini lays out a Gemini data directory with chats and
// distractors and returns the files discovery must list, in order.
func scratchGemini(t *testing.T, data string) []core.SourceFile {
	t.Helper()
	slug := filepath.Join(data, "tmp", "proj")
	hash := filepath.Join(data, "tmp", projectHash("/src/old")) // 173b16f0…, sorts first
	bare := filepath.Join(data, "tmp", "bare")
	rootFile := filepath.Join(slug, projectRootFile)
	projects := filepath.Join(data, projectsFile)
	write(t, projects, `{"projects":{"/src/proj":"proj","/src/old":"old"}}`)
	write(t, rootFile, "/src/proj\n")
	want := []core.SourceFile{
		{Path: filepath.Join(hash, "chats", "session-2025-09-16T20-39-38d857b1.json"), Companions: []string{projects}},
		{Path: filepath.Join(bare, "chats", "session-2026-01-01T00-00-cccccccc.jsonl"), Companions: []string{projects}},
		{Path: filepath.Join(slug, "chats", "11111111-aaaa", "sub-1.jsonl"), Companions: []string{rootFile}},
		{Path: filepath.Join(slug, "chats", "session-2026-04-25T08-41-aaaaaaaa.json"), Companions: []string{rootFile}},
		{Path: filepath.Join(slug, "chats", "session-2026-04-25T08-46-bbbbbbbb.jsonl"), Companions: []string{rootFile}},
		{Path: filepath.Join(slug, "chats", "session-2026-04-25T09-00-dddddddd.jsonl"), Companions: []string{rootFile}},
	}
	for i := range want {
		want[i].Provider = ProviderID
		write(t, want[i].Path, "{}\n")
	}
	for _, p := range []string{
		filepath.Join(slug, "chats", "session-2026-04-25T09-00-dddddddd.json"), // superseded by its .jsonl
		filepath.Join(slug, "chats", "session-2026-04-25T08-46-bbbbbbbb.jsonl.unreadable-1700000000000"),
		filepath.Join(slug, "chats", "session-2026-04-25T08-46-bbbbbbbb.jsonl.tmp-42"),
		filepath.Join(slug, "chats", "notes.json"),
		filepath.Join(slug, "chats", "11111111-aaaa", "notes.txt"),
		filepath.Join(slug, "logs.json"),
		filepath.Join(slug, "checkpoints", "session-x.json"),
		filepath.Join(data, "tmp", "session-2026-04-25T08-46-eeeeeeee.jsonl"),
		filepath.Join(data, "settings.json"),
	} {
		write(t, p, "{}\n")
	}
	return want
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name string
		env  func(home, custom string) core.Env
		data func(home, custom string) string
	}{
		{"home", func(home, _ string) core.Env { return core.Env{Home: home} },
			func(home, _ string) string { return filepath.Join(home, ".gemini") }},
		{"GEMINI_CLI_HOME", func(home, custom string) core.Env {
			return core.Env{Home: home, Getenv: func(k string) string {
				if k == HomeEnv {
					return custom
				}
				return ""
			}}
		}, func(_, custom string) string { return filepath.Join(custom, ".gemini") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, custom := t.TempDir(), filepath.Join(t.TempDir(), "alt")
			want := scratchGemini(t, tt.data(home, custom))
			env := tt.env(home, custom)
			files, problems := New().Discover(env)
			if len(problems) != 0 {
				t.Errorf("problems %v", problems)
			}
			if !reflect.DeepEqual(files, want) {
				t.Errorf("files\n got %+v\nwant %+v", files, want)
			}
			if root := New().Root(env); root != tt.data(home, custom) {
				t.Errorf("root %q", root)
			}
		})
	}
}

func TestDiscoverIn(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, ".gemini")
	want := scratchGemini(t, data)
	for _, dir := range []string{data, home} {
		files, problems := New().DiscoverIn(dir)
		if len(problems) != 0 || !reflect.DeepEqual(files, want) {
			t.Errorf("DiscoverIn(%s): files %+v problems %v", dir, files, problems)
		}
	}
}

func TestDiscoverMissingAndUnreadable(t *testing.T) {
	home := t.TempDir()
	if files, problems := New().Discover(core.Env{Home: home}); len(files)+len(problems) != 0 {
		t.Fatalf("missing data dir: files %v problems %v", files, problems)
	}
	if files, problems := New().Discover(core.Env{}); len(files)+len(problems) != 0 {
		t.Fatalf("no home: files %v problems %v", files, problems)
	}
	data := filepath.Join(home, ".gemini")
	scratchGemini(t, data)
	// A chats path that is a file cannot be listed, even by root.
	broken := filepath.Join(data, "tmp", "broken", "chats")
	write(t, broken, "not a directory")
	files, problems := New().Discover(core.Env{Home: home})
	want := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID, Path: broken}}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
	if len(files) != 6 {
		t.Errorf("%d files, want the 6 readable chats", len(files))
	}
}

func TestResolveWorkspace(t *testing.T) {
	data := filepath.Join(t.TempDir(), ".gemini")
	write(t, filepath.Join(data, projectsFile),
		`{"projects":{"/src/proj":"proj","/src/noroot":"noroot","/src/old":"old","/src/other":"other"}}`)
	write(t, filepath.Join(data, "tmp", "proj", projectRootFile), "  /src/proj-from-marker\n")
	chat := func(dir string) string { return filepath.Join(data, "tmp", dir, "chats", "session-x.jsonl") }
	tests := []struct {
		name, path, root string
		hash             bool
	}{
		{".project_root", chat("proj"), "/src/proj-from-marker", false},
		{"subagent", filepath.Join(data, "tmp", "proj", "chats", "p1", "s.jsonl"), "/src/proj-from-marker", false},
		{"slug in projects.json", chat("noroot"), "/src/noroot", true},
		{"hash dir", chat(projectHash("/src/old")), "/src/old", true},
		{"unknown dir", chat("elsewhere"), "", true},
		{"not in the layout", filepath.Join(data, "x.jsonl"), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, problems := resolveWorkspace(tt.path)
			if len(problems) != 0 || ws.Root != tt.root || (ws.ByHash != nil) != tt.hash {
				t.Errorf("root %q hashes %v problems %v, want %q", ws.Root, ws.ByHash, problems, tt.root)
			}
			if tt.hash && ws.ByHash[projectHash("/src/other")] != "/src/other" {
				t.Errorf("hashes %v", ws.ByHash)
			}
		})
	}
}

// TestWorkspaceFromProjectHash resolves a chat in a directory projects.json
// does not name through the projectHash the chat records.
func TestWorkspaceFromProjectHash(t *testing.T) {
	data := filepath.Join(t.TempDir(), ".gemini")
	write(t, filepath.Join(data, projectsFile), `{"projects":{"/src/moved":"moved"}}`)
	path := filepath.Join(data, "tmp", "stale", "chats", "session-x.jsonl")
	write(t, path, `{"sessionId":"s1","projectHash":"`+projectHash("/src/moved")+`"}`+"\n")
	res, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if ws := only(t, res).Session.Workspace; ws != "/src/moved" {
		t.Errorf("workspace %q", ws)
	}
}

func TestBadProjectsFile(t *testing.T) {
	data := filepath.Join(t.TempDir(), ".gemini")
	projects := filepath.Join(data, projectsFile)
	path := filepath.Join(data, "tmp", "proj", "chats", "session-x.jsonl")
	write(t, path, metaLine+"\n"+userLine("u1", "a")+"\n")
	for data, code := range map[string]string{`{"projects":{"/a":`: core.ProblemInvalidJSON,
		`{"projects":["/a"]}`: core.ProblemInvalidRecord} {
		write(t, projects, data)
		res, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: path})
		if err != nil {
			t.Fatal(err)
		}
		want := []core.Problem{{Code: code, Provider: ProviderID, Path: projects}}
		if !reflect.DeepEqual(res.Problems, want) || len(only(t, res).Events) != 1 {
			t.Errorf("projects.json %s: problems %v", data, res.Problems)
		}
	}
}

// TestDiscoverNoCompanion lists a chat whose workspace nothing names
// without companions.
func TestDiscoverNoCompanion(t *testing.T) {
	data := t.TempDir()
	path := filepath.Join(data, "tmp", "abc", "chats", "session-x.jsonl")
	write(t, path, "{}\n")
	files, problems := New().DiscoverIn(data)
	want := []core.SourceFile{{Provider: ProviderID, Path: path}}
	if len(problems) != 0 || !reflect.DeepEqual(files, want) {
		t.Errorf("files %+v problems %v", files, problems)
	}
}
