package copilot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	idA = "11111111-1111-4111-8111-111111111111"
	idB = "22222222-2222-4222-8222-222222222222"
	idC = "33333333-3333-4333-8333-333333333333"
)

// scratchHome lays out a Copilot home with sessions and distractors and
// returns the files discovery must list, sorted.
func scratchHome(t *testing.T, home string) []core.SourceFile {
	t.Helper()
	state := filepath.Join(home, StateDir)
	write(t, filepath.Join(state, idA, EventsFile), "{}\n")
	write(t, filepath.Join(state, idA, WorkspaceFile), "id: "+idA+"\n")
	write(t, filepath.Join(state, idB, EventsFile), "{}\n") // no workspace.yaml yet
	write(t, filepath.Join(state, idC+".jsonl"), "{}\n")    // flat layout of older builds
	write(t, filepath.Join(state, "notes.txt"), "x")
	write(t, filepath.Join(state, "empty", "workspace.yaml"), "id: x\n")
	write(t, filepath.Join(home, "mcp-config.json"), "{}")
	write(t, filepath.Join(home, "logs", "session.jsonl"), "{}\n")
	return []core.SourceFile{
		{Provider: ProviderID, Path: filepath.Join(state, idA, EventsFile), Companions: []string{filepath.Join(state, idA, WorkspaceFile)}},
		{Provider: ProviderID, Path: filepath.Join(state, idB, EventsFile), Companions: []string{filepath.Join(state, idB, WorkspaceFile)}},
		{Provider: ProviderID, Path: filepath.Join(state, idC+".jsonl")},
	}
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name string
		env  func(home, custom string) core.Env
		root func(home, custom string) string
	}{
		{"home", func(home, _ string) core.Env { return core.Env{Home: home} },
			func(home, _ string) string { return filepath.Join(home, ".copilot") }},
		{"COPILOT_HOME", func(home, custom string) core.Env {
			return core.Env{Home: home, Getenv: func(k string) string {
				if k == HomeEnv {
					return custom
				}
				return ""
			}}
		}, func(_, custom string) string { return custom }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, custom := t.TempDir(), filepath.Join(t.TempDir(), "copilot")
			root := tt.root(home, custom)
			want := scratchHome(t, root)
			env := tt.env(home, custom)
			files, problems := New().Discover(env)
			if len(problems) != 0 || !reflect.DeepEqual(files, want) {
				t.Errorf("files %+v problems %v\nwant %+v", files, problems, want)
			}
			if got := New().Root(env); got != root {
				t.Errorf("root %q, want %q", got, root)
			}
			for _, dir := range []string{root, filepath.Join(root, StateDir)} {
				if files, problems := New().DiscoverIn(dir); len(problems) != 0 || !reflect.DeepEqual(files, want) {
					t.Errorf("DiscoverIn(%s) = %+v %v", dir, files, problems)
				}
			}
		})
	}
}

func TestDiscoverMissingAndUnreadable(t *testing.T) {
	home := t.TempDir()
	for _, env := range []core.Env{{Home: home}, {}} {
		if files, problems := New().Discover(env); len(files)+len(problems) != 0 {
			t.Fatalf("missing home: %v %v", files, problems)
		}
	}
	if os.Geteuid() == 0 {
		t.Skip("permissions are not enforced for root")
	}
	root := filepath.Join(home, ".copilot")
	scratchHome(t, root)
	locked := filepath.Join(root, StateDir, idB)
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	files, problems := New().Discover(core.Env{Home: home})
	if want := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID, Path: locked}}; !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
	if len(files) != 2 {
		t.Errorf("files %v, want the 2 readable logs", files)
	}
}

func TestParseVanished(t *testing.T) {
	_, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: filepath.Join(t.TempDir(), idA, EventsFile)})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a not-exist error", err)
	}
}

// TestWorkspaceCompanion checks that workspace.yaml fills what the log does
// not say, and that a broken one is a counted problem.
func TestWorkspaceCompanion(t *testing.T) {
	dir := filepath.Join(t.TempDir(), idA)
	log := filepath.Join(dir, EventsFile)
	write(t, log, ev("user.message", "u1", "2026-03-21T13:03:04Z", `{"content":"hi"}`)+"\n")
	write(t, filepath.Join(dir, WorkspaceFile), "id: "+idA+"\ncwd: /src/app\nbranch: dev\nsummary: Fix the build\ncreated_at: 2026-03-21T12:58:56.643Z\n")
	res, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: log})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Sessions[0].Session
	if s.NativeID != idA || s.Workspace != "/src/app" || s.GitBranch != "dev" || s.Title != "Fix the build" || len(res.Problems) != 0 {
		t.Errorf("session %+v problems %v", s, res.Problems)
	}
	write(t, filepath.Join(dir, WorkspaceFile), "id: [unclosed\n")
	res, err = New().Parse(core.SourceFile{Provider: ProviderID, Path: log})
	if err != nil {
		t.Fatal(err)
	}
	want := []core.Problem{{Code: core.ProblemInvalidRecord, Provider: ProviderID, Path: filepath.Join(dir, WorkspaceFile)}}
	if !reflect.DeepEqual(res.Problems, want) || len(res.Sessions) != 1 || res.Sessions[0].Session.Workspace != "" {
		t.Errorf("problems %v sessions %+v", res.Problems, res.Sessions)
	}
}
