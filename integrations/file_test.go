package integrations

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewFileModes(t *testing.T) {
	env := testEnv(t)
	r := run(t, OpInstall, opts(env, "windsurf", false))
	if r.Action != ActionAdded || r.ConfigPresent != true || r.Backup != "" {
		t.Fatalf("%+v", r)
	}
	fi, err := os.Stat(r.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, %v", fi.Mode().Perm(), err)
	}
	for _, dir := range []string{filepath.Dir(r.Path), filepath.Dir(filepath.Dir(r.Path))} {
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s mode %v, %v", dir, fi.Mode().Perm(), err)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(r.Path))
	if len(entries) != 1 {
		t.Fatalf("left temporary files: %v", entries)
	}
	// Removing from a missing file creates nothing.
	r = run(t, OpRemove, opts(env, "cursor", false))
	if r.Action != ActionUnchanged || r.ConfigPresent {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(env.Home, ".cursor")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("remove created the client's directory")
	}
}

func TestSymlinkedConfigIsEditedInPlace(t *testing.T) {
	env := testEnv(t)
	real := filepath.Join(env.Home, "dotfiles", "claude.json")
	writeFile(t, real, []byte("{\n  \"a\": 1\n}\n"), 0o640)
	link := filepath.Join(env.Home, ".claude.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	r := run(t, OpInstall, opts(env, "claude-code", false))
	if r.Action != ActionAdded {
		t.Fatalf("%+v", r)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symbolic link was replaced")
	}
	if !strings.Contains(string(readFile(t, real)), `"ctx"`) {
		t.Fatal("the link's target was not edited")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestReplaceNoticesConcurrentWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, path, []byte("{}"), 0o600)
	f, err := readConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, []byte(`{"changed": true}`), 0o600)
	if _, err := f.replace([]byte(`{"ctx": 1}`)); !errors.Is(err, errChanged) {
		t.Fatalf("replace over a changed file: %v", err)
	}
	if got := readFile(t, path); string(got) != `{"changed": true}` {
		t.Fatalf("file overwritten: %s", got)
	}
}

func TestSelection(t *testing.T) {
	env := testEnv(t)
	for _, dir := range []string{".cursor", ".codex", ".config/zed"} {
		if err := os.MkdirAll(filepath.Join(env.Home, dir), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	reports, err := Run(OpInstall, Options{Env: env, Server: testServer})
	if err != nil || ids(reports) != "cursor codex zed" {
		t.Fatalf("install selected %q, %v", ids(reports), err)
	}
	if reports, _ = Run(OpStatus, Options{Env: env, Server: testServer}); len(reports) != len(Clients()) {
		t.Fatalf("status covers %d clients", len(reports))
	}
	reports, _ = Run(OpStatus, Options{Env: env, Server: testServer, Clients: []string{"claude", "gemini", "claude-code"}})
	if ids(reports) != "claude-code gemini-cli" {
		t.Fatalf("aliases and duplicates: %q", ids(reports))
	}
	_, err = Run(OpStatus, Options{Env: env, Clients: []string{"emacs"}})
	wantErr[*UnknownClientError](t, err)
	_, err = Run(OpStatus, Options{Env: env, Clients: []string{"windsurf"}, Scope: ScopeProject, Project: env.Home})
	wantErr[*NoProjectScopeError](t, err)
}

func TestProjectScope(t *testing.T) {
	env := testEnv(t)
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := Options{Env: env, Server: testServer, Scope: ScopeProject, Project: project}
	reports, err := Run(OpInstall, o)
	if err != nil || ids(reports) != "claude-code vscode" {
		t.Fatalf("selected %q, %v", ids(reports), err)
	}
	if reports[0].Path != filepath.Join(project, ".mcp.json") || reports[0].Scope != ScopeProject {
		t.Fatalf("%+v", reports[0])
	}
	if !strings.Contains(string(readFile(t, reports[1].Path)), `"servers": {`) {
		t.Fatal("vscode project file lacks servers")
	}
	if _, err := os.Stat(filepath.Join(env.Home, ".claude.json")); err == nil {
		t.Fatal("project install wrote the user file")
	}
}

func TestPathsFollowEnvironment(t *testing.T) {
	vars := map[string]string{"CODEX_HOME": "/srv/codex", "COPILOT_HOME": "/srv/copilot", "XDG_CONFIG_HOME": "/xdg"}
	env := Env{Home: "/home/u", Getenv: func(k string) string { return vars[k] }, OS: "linux"}
	want := map[string]string{
		"codex": "/srv/codex/config.toml", "copilot-cli": "/srv/copilot/mcp-config.json",
		"zed": "/xdg/zed/settings.json", "vscode": "/xdg/Code/User/mcp.json",
		"opencode": "/xdg/opencode/opencode.json", "gemini-cli": "/home/u/.gemini/settings.json",
	}
	for id, path := range want {
		c, _ := Lookup(id)
		if got := c.Path(env, ScopeUser, ""); got != filepath.FromSlash(path) {
			t.Errorf("%s: %s, want %s", id, got, path)
		}
	}
	mac := Env{Home: "/Users/u", OS: "darwin"}
	c, _ := Lookup("vscode")
	if got := c.Path(mac, ScopeUser, ""); got != "/Users/u/Library/Application Support/Code/User/mcp.json" {
		t.Errorf("vscode on macOS: %s", got)
	}
}

func ids(reports []Report) string {
	var out []string
	for _, r := range reports {
		out = append(out, r.Client)
	}
	return strings.Join(out, " ")
}
