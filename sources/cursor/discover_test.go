package cursor

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// scratchUser lays out a Cursor user directory with databases and
// distractors and returns the database paths in sorted order.
func scratchUser(t *testing.T, user string) []string {
	t.Helper()
	want := []string{
		filepath.Join(user, "globalStorage", dbName),
		filepath.Join(user, "workspaceStorage", "0a1b", dbName),
		filepath.Join(user, "workspaceStorage", "ffee", dbName),
	}
	for _, p := range want {
		touch(t, p)
	}
	touch(t, filepath.Join(user, "workspaceStorage", "ffee", "workspace.json"))
	for _, p := range []string{
		filepath.Join(user, "globalStorage", dbName+".backup"),
		filepath.Join(user, "workspaceStorage", "notes.txt"),
		filepath.Join(user, "workspaceStorage", "empty", "workspace.json"),
		filepath.Join(user, "History", "x", dbName),
	} {
		touch(t, p)
	}
	if err := os.MkdirAll(filepath.Join(user, "workspaceStorage", "dir-db", dbName), 0o755); err != nil {
		t.Fatal(err)
	}
	return want
}

func paths(files []core.SourceFile) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func envOf(home string, vars map[string]string) core.Env {
	return core.Env{Home: home, Getenv: func(k string) string { return vars[k] }}
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name string
		vars func(scratch string) map[string]string
		user func(home, scratch string) string
	}{
		{"linux", func(string) map[string]string { return nil },
			func(home, _ string) string { return filepath.Join(home, ".config", "Cursor", "User") }},
		{"XDG_CONFIG_HOME", func(s string) map[string]string { return map[string]string{"XDG_CONFIG_HOME": s} },
			func(_, s string) string { return filepath.Join(s, "Cursor", "User") }},
		{"macOS", func(string) map[string]string { return nil },
			func(home, _ string) string {
				return filepath.Join(home, "Library", "Application Support", "Cursor", "User")
			}},
		{"APPDATA", func(s string) map[string]string { return map[string]string{"APPDATA": s} },
			func(_, s string) string { return filepath.Join(s, "Cursor", "User") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, scratch := t.TempDir(), t.TempDir()
			user := tt.user(home, scratch)
			want := scratchUser(t, user)
			env := envOf(home, tt.vars(scratch))
			files, problems := New().Discover(env)
			if len(problems) != 0 {
				t.Errorf("problems %v", problems)
			}
			if got := paths(files); !reflect.DeepEqual(got, want) {
				t.Errorf("files\n got %v\nwant %v", got, want)
			}
			if root := New().Root(env); root != user {
				t.Errorf("root %q, want %q", root, user)
			}
			checkCompanions(t, files)
		})
	}
}

func checkCompanions(t *testing.T, files []core.SourceFile) {
	t.Helper()
	for _, f := range files {
		want := []string{f.Path + "-wal", f.Path + "-shm"}
		if filepath.Base(filepath.Dir(filepath.Dir(f.Path))) == "workspaceStorage" {
			want = append(want, filepath.Join(filepath.Dir(f.Path), "workspace.json"))
		}
		if f.Provider != ProviderID || !reflect.DeepEqual(f.Companions, want) {
			t.Errorf("%s: provider %q companions %v", f.Path, f.Provider, f.Companions)
		}
	}
}

// TestXDGReplacesDotConfig: with XDG_CONFIG_HOME set, ~/.config is not read.
func TestXDGReplacesDotConfig(t *testing.T) {
	home, xdg := t.TempDir(), t.TempDir()
	scratchUser(t, filepath.Join(home, ".config", "Cursor", "User"))
	files, _ := New().Discover(envOf(home, map[string]string{"XDG_CONFIG_HOME": xdg}))
	if len(files) != 0 {
		t.Errorf("files %v, want none", paths(files))
	}
	if root := New().Root(envOf(home, map[string]string{"XDG_CONFIG_HOME": xdg})); root != filepath.Join(xdg, "Cursor", "User") {
		t.Errorf("root of a missing install %q", root)
	}
}

func TestDiscoverIn(t *testing.T) {
	config := filepath.Join(t.TempDir(), "Cursor")
	want := scratchUser(t, filepath.Join(config, "User"))
	for _, dir := range []string{config, filepath.Join(config, "User")} {
		files, problems := New().DiscoverIn(dir)
		if len(problems) != 0 || !reflect.DeepEqual(paths(files), want) {
			t.Errorf("DiscoverIn(%s): files %v problems %v", dir, paths(files), problems)
		}
	}
}

func TestDiscoverMissing(t *testing.T) {
	for _, env := range []core.Env{{Home: t.TempDir()}, {}} {
		if files, problems := New().Discover(env); len(files)+len(problems) != 0 {
			t.Errorf("env %+v: files %v problems %v", env, files, problems)
		}
	}
	if root := New().Root(core.Env{}); root != "" {
		t.Errorf("root without a home %q", root)
	}
}

// TestDiscoverUnreadable fails the listing of workspaceStorage, or the
// stat of one database: each is a problem, and the rest is still found.
func TestDiscoverUnreadable(t *testing.T) {
	user := filepath.Join(t.TempDir(), "User")
	all := scratchUser(t, user)
	ws := filepath.Join(user, "workspaceStorage")
	denied := func(p string) error { return &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission} }
	tests := []struct {
		name       string
		badDir     string
		badFile    string
		want       []string
		problemFor string
	}{
		{"workspaceStorage", ws, "", all[:1], ws},
		{"one database", "", all[1], []string{all[0], all[2]}, all[1]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiscovery()
			d.readDir = func(dir string) ([]fs.DirEntry, error) {
				if dir == tt.badDir {
					return nil, denied(dir)
				}
				return os.ReadDir(dir)
			}
			d.stat = func(p string) (fs.FileInfo, error) {
				if p == tt.badFile {
					return nil, denied(p)
				}
				return os.Stat(p)
			}
			d.userDir(user)
			files, problems := d.result()
			want := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID, Path: tt.problemFor}}
			if !reflect.DeepEqual(problems, want) || !reflect.DeepEqual(paths(files), tt.want) {
				t.Errorf("files %v problems %v", paths(files), problems)
			}
		})
	}
}
