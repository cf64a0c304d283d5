package codex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"ctx/core"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scratchCodex lays out a Codex home with rollouts and distractors and
// returns the rollout paths in sorted order.
func scratchCodex(t *testing.T, root string) []string {
	t.Helper()
	want := []string{
		filepath.Join(root, "archived_sessions", "rollout-2025-01-01T00-00-00-a.jsonl"),
		filepath.Join(root, "sessions", "2025", "10", "31", "rollout-2025-10-31T19-02-58-b.jsonl"),
		filepath.Join(root, "sessions", "2025", "12", "15", "rollout-2025-12-15T12-00-35-c.jsonl"),
		filepath.Join(root, "sessions", "rollout-flat.jsonl"),
	}
	for _, p := range want {
		touch(t, p)
	}
	for _, p := range []string{
		filepath.Join(root, "history.jsonl"),
		filepath.Join(root, "sessions", "2025", "notes.jsonl"),
		filepath.Join(root, "sessions", "2025", "rollout-x.json"),
		filepath.Join(root, "log", "rollout-y.jsonl"),
	} {
		touch(t, p)
	}
	return want
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name string
		env  func(home, codexHome string) core.Env
		root func(home, codexHome string) string
	}{
		{"home", func(home, _ string) core.Env { return core.Env{Home: home} },
			func(home, _ string) string { return filepath.Join(home, ".codex") }},
		{"CODEX_HOME", func(home, ch string) core.Env {
			return core.Env{Home: home, Getenv: func(k string) string {
				if k == "CODEX_HOME" {
					return ch
				}
				return ""
			}}
		}, func(_, ch string) string { return ch }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			codexHome := filepath.Join(t.TempDir(), "custom")
			want := scratchCodex(t, tt.root(home, codexHome))
			files, problems := New().Discover(tt.env(home, codexHome))
			if len(problems) != 0 {
				t.Errorf("problems %v", problems)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Path)
				if f.Provider != core.ProviderCodex {
					t.Errorf("provider %q", f.Provider)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("files\n got %v\nwant %v", got, want)
			}
		})
	}
}

func TestDiscoverMissingAndUnreadable(t *testing.T) {
	home := t.TempDir()
	if files, problems := New().Discover(core.Env{Home: home}); len(files)+len(problems) != 0 {
		t.Fatalf("missing root: files %v problems %v", files, problems)
	}
	if files, problems := New().Discover(core.Env{}); len(files)+len(problems) != 0 {
		t.Fatalf("no home: files %v problems %v", files, problems)
	}
	if os.Geteuid() == 0 {
		t.Skip("permissions are not enforced for root")
	}
	root := filepath.Join(home, ".codex")
	scratchCodex(t, root)
	locked := filepath.Join(root, "sessions", "2025", "10")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	files, problems := New().Discover(core.Env{Home: home})
	want := []core.Problem{{Code: core.ProblemUnreadable, Provider: core.ProviderCodex, Path: locked}}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
	if len(files) != 3 {
		t.Errorf("files %v, want the 3 readable rollouts", files)
	}
}

// faultFS fails to list one directory.
type faultFS struct {
	fstest.MapFS
	bad string
}

func (f faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.bad {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadDir(name)
}

func TestDiscoverUnreadableDir(t *testing.T) {
	fsys := faultFS{MapFS: fstest.MapFS{
		"sessions/2025/10/31/rollout-a.jsonl": {},
		"sessions/2025/12/15/rollout-b.jsonl": {},
		"archived_sessions/rollout-c.jsonl":   {},
	}, bad: "sessions/2025/10"}
	root := filepath.Join("scratch", ".codex")
	files, problems := discover(fsys, root)
	want := []core.Problem{{Code: core.ProblemUnreadable, Provider: core.ProviderCodex,
		Path: filepath.Join(root, "sessions", "2025", "10")}}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	wantFiles := []string{filepath.Join(root, "archived_sessions", "rollout-c.jsonl"),
		filepath.Join(root, "sessions", "2025", "12", "15", "rollout-b.jsonl")}
	if !reflect.DeepEqual(got, wantFiles) {
		t.Errorf("files %v, want %v", got, wantFiles)
	}
}

func TestParseVanished(t *testing.T) {
	_, err := New().Parse(core.SourceFile{Provider: core.ProviderCodex,
		Path: filepath.Join(t.TempDir(), "rollout-gone.jsonl")})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a not-exist error", err)
	}
}
