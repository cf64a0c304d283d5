package aider

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("\n# aider chat started at 2025-01-01 00:00:00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scratchTree lays out repositories with chat logs and distractors under
// root and returns the logs DiscoverIn must find, sorted.
func scratchTree(t *testing.T, root string) []string {
	t.Helper()
	want := []string{
		filepath.Join(root, HistoryFile),
		filepath.Join(root, "a", "b", "c", "d", "e", "f", HistoryFile), // depth 6
		filepath.Join(root, "repo1", HistoryFile),
		filepath.Join(root, "work", "repo2", HistoryFile),
	}
	for _, p := range want {
		touch(t, p)
	}
	for _, p := range []string{
		filepath.Join(root, "a", "b", "c", "d", "e", "f", "g", HistoryFile), // too deep
		filepath.Join(root, "repo1", ".git", HistoryFile),
		filepath.Join(root, "repo1", "node_modules", "x", HistoryFile),
		filepath.Join(root, "repo1", "vendor", HistoryFile),
		filepath.Join(root, ".hidden", "repo", HistoryFile),
		filepath.Join(root, "repo1", ".aider.input.history"),
		filepath.Join(root, "repo1", "aider.chat.history.md"),
	} {
		touch(t, p)
	}
	if err := os.Mkdir(filepath.Join(root, "work", "repo2", HistoryFile+".d"), 0o755); err != nil {
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

func TestDiscoverIn(t *testing.T) {
	root := t.TempDir()
	want := scratchTree(t, root)
	files, problems := New().DiscoverIn(root)
	if len(problems) != 0 {
		t.Errorf("problems %v", problems)
	}
	if got := paths(files); !reflect.DeepEqual(got, want) {
		t.Errorf("files\n got %v\nwant %v", got, want)
	}
	for _, f := range files {
		if f.Provider != ProviderID || f.Root != "" || f.Group != "" {
			t.Errorf("file %+v", f)
		}
	}
	if files, problems := New().DiscoverIn(filepath.Join(root, "missing")); len(files)+len(problems) != 0 {
		t.Errorf("missing dir: %v %v", files, problems)
	}
}

func TestDiscoverInUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("permissions are not enforced for root")
	}
	root := t.TempDir()
	scratchTree(t, root)
	locked := filepath.Join(root, "work")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	files, problems := New().DiscoverIn(root)
	want := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID, Path: locked}}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
	if len(files) != 3 {
		t.Errorf("files %v, want the 3 readable logs", paths(files))
	}
}

func TestDiscoverEnv(t *testing.T) {
	home := t.TempDir()
	log := filepath.Join(home, "proj", HistoryFile)
	touch(t, log)
	env := func(v string) core.Env {
		return core.Env{Home: home, Getenv: func(k string) string {
			if k == HistoryFileEnv {
				return v
			}
			return ""
		}}
	}
	tests := []struct {
		name, value string
		want        []string
		root        string
	}{
		{"unset", "", nil, ""},
		{"absolute", log, []string{log}, filepath.Dir(log)},
		{"relative", HistoryFile, nil, ""},
		{"missing", filepath.Join(home, "nope.md"), nil, home},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, problems := New().Discover(env(tt.value))
			if len(problems) != 0 || !reflect.DeepEqual(paths(files), tt.want) {
				t.Errorf("files %v problems %v, want %v", paths(files), problems, tt.want)
			}
			if got := New().Root(env(tt.value)); got != tt.root {
				t.Errorf("root %q, want %q", got, tt.root)
			}
		})
	}
	if files, problems := New().Discover(core.Env{Home: home}); len(files)+len(problems) != 0 {
		t.Errorf("no environment: %v %v", files, problems)
	}
}

func TestFindInRepo(t *testing.T) {
	repo := t.TempDir()
	if _, ok := FindInRepo(repo); ok {
		t.Fatal("found a log in an empty repository")
	}
	touch(t, filepath.Join(repo, HistoryFile))
	f, ok := FindInRepo(repo)
	if !ok || f.Path != filepath.Join(repo, HistoryFile) || f.Provider != ProviderID {
		t.Errorf("FindInRepo = %+v, %v", f, ok)
	}
	if _, ok := FindInRepo(filepath.Join(repo, HistoryFile)); ok {
		t.Error("a file is not a repository")
	}
}

func TestParseVanished(t *testing.T) {
	_, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: filepath.Join(t.TempDir(), HistoryFile)})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "aider") {
		t.Fatalf("err = %v, want a not-exist error", err)
	}
}
