package claude

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ctx/core"
)

// scratchRoot builds a history root from the fixtures plus files that must
// not be discovered, and returns the transcript paths (relative, slash form)
// that must be.
func scratchRoot(t *testing.T, root string) []string {
	t.Helper()
	src := fixturesDir(t)
	copies := map[string]string{
		mainFile:    mainFile,
		newSubagent: newSubagent,
		strings.TrimSuffix(newSubagent, ".jsonl") + ".meta.json": strings.TrimSuffix(newSubagent, ".jsonl") + ".meta.json",
		oldSubagent:           oldSubagent,
		legacyFile:            legacyFile,
		compactFile:           "projects/E--CC-test/db3f6604-87af-4808-9c12-c2c5d34c3857.jsonl",
		"sessions/10932.json": "sessions/10932.json",
	}
	for from, to := range copies {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(from)))
		if err != nil {
			t.Fatal(err)
		}
		mkfile(t, filepath.Join(root, filepath.FromSlash(to)), string(data))
	}
	for _, noise := range []string{"history.jsonl", "projects/stray.jsonl", "projects/E--CC-test/notes.txt",
		"projects/E--CC-test/db3f6604-87af-4808-9c12-c2c5d34c3857/tool-results/x.jsonl",
		"projects/-experiments-worktrees/" + mainSession + "/subagents/notes.jsonl"} {
		mkfile(t, filepath.Join(root, filepath.FromSlash(noise)), "{}\n")
	}
	if err := os.MkdirAll(filepath.Join(root, "projects", "dir.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	return []string{mainFile, newSubagent, oldSubagent, legacyFile, "projects/E--CC-test/db3f6604-87af-4808-9c12-c2c5d34c3857.jsonl"}
}

func mkfile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, path, data)
}

func TestDiscover(t *testing.T) {
	tmp := t.TempDir()
	tests := []struct {
		name string
		env  core.Env
		root string
	}{
		{"home", core.Env{Home: filepath.Join(tmp, "home")}, filepath.Join(tmp, "home", ".claude")},
		{"config dir", core.Env{Home: filepath.Join(tmp, "home"), Getenv: func(k string) string {
			if k == ConfigDirEnv {
				return filepath.Join(tmp, "custom")
			}
			return ""
		}}, filepath.Join(tmp, "custom")},
	}
	scratchRoot(t, filepath.Join(tmp, "home", ".claude"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := scratchRoot(t, tt.root)
			files, problems := New().Discover(tt.env)
			if len(problems) != 0 {
				t.Errorf("problems %v", problems)
			}
			var got []string
			for _, f := range files {
				rel, err := filepath.Rel(tt.root, f.Path)
				if err != nil || f.Provider != core.ProviderClaude {
					t.Fatalf("file %+v outside root", f)
				}
				got = append(got, filepath.ToSlash(rel))
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("discovered\n%s\nwant (sorted)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			checkDiscoveredParse(t, files)
		})
	}
}

// checkDiscoveredParse parses discovered files through the provider: the
// subagent picks up its meta.json and links to the main session.
func checkDiscoveredParse(t *testing.T, files []core.SourceFile) {
	t.Helper()
	sessions := map[string]core.Session{}
	for _, f := range files {
		res, err := New().Parse(f)
		if err != nil || len(res.Problems) != 0 {
			t.Fatalf("parse %s: %v %v", f.Path, err, res.Problems)
		}
		s := res.Sessions[0].Session
		sessions[s.NativeID] = s
	}
	sub, main := sessions[mainSession+"/agent-a52886dc180afb356"], sessions[mainSession]
	if sub.AgentType != "general-purpose" || sub.ParentSessionID != main.ID || sub.RootSessionID != main.RootSessionID {
		t.Errorf("subagent %+v\nmain %+v", sub, main)
	}
}

func TestDiscoverMissingRoot(t *testing.T) {
	for _, env := range []core.Env{{}, {Home: filepath.Join(t.TempDir(), "nobody")}} {
		files, problems := New().Discover(env)
		if len(files) != 0 || len(problems) != 0 {
			t.Errorf("env %+v: files %v problems %v", env, files, problems)
		}
	}
}

func TestDiscoverUnreadable(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".claude")
	mkfile(t, filepath.Join(root, "projects", "ok", "s.jsonl"), "{}\n")
	// A symlink loop cannot be read even by root.
	loop := filepath.Join(root, "projects", "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "projects", "dangling")); err != nil {
		t.Fatal(err)
	}
	wantProblems := []string{loop}
	if os.Geteuid() != 0 {
		locked := filepath.Join(root, "projects", "locked")
		mkfile(t, filepath.Join(locked, "x.jsonl"), "{}\n")
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(locked, 0o700) })
		wantProblems = append(wantProblems, locked)
	}
	files, problems := New().Discover(core.Env{Home: filepath.Dir(root)})
	if len(files) != 1 || files[0].Path != filepath.Join(root, "projects", "ok", "s.jsonl") {
		t.Errorf("files %v", files)
	}
	var got []string
	for _, p := range problems {
		if p.Code != core.ProblemUnreadable || p.Provider != core.ProviderClaude {
			t.Errorf("problem %+v", p)
		}
		got = append(got, p.Path)
	}
	slices.Sort(got)
	slices.Sort(wantProblems)
	if !slices.Equal(got, wantProblems) {
		t.Errorf("problem paths %v, want %v", got, wantProblems)
	}
}
