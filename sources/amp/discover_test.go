package amp

import (
	"errors"
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
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scratchThreads lays out a data dir with threads and distractors and
// returns the thread paths in sorted order.
func scratchThreads(t *testing.T, data string) []core.SourceFile {
	t.Helper()
	threads := filepath.Join(data, "threads")
	names := []string{"T-019b9d03-62e3-772f-9780-3e637f90eaec.json", "T-1d0ef56c-0ecd-4bf7-af7b-5bc196dc8a6a.json"}
	var want []core.SourceFile
	for _, n := range names {
		touch(t, filepath.Join(threads, n))
		want = append(want, core.SourceFile{Provider: ProviderAmp, Path: filepath.Join(threads, n)})
	}
	for _, p := range []string{filepath.Join(data, "secrets.json"), filepath.Join(data, "session.json"),
		filepath.Join(data, "history.jsonl"), filepath.Join(threads, "notes.json"), filepath.Join(threads, "T-x.json.tmp")} {
		touch(t, p)
	}
	if err := os.MkdirAll(filepath.Join(threads, "T-dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	return want
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name string
		env  func(home, xdg string) core.Env
		data func(home, xdg string) string
	}{
		{"home", func(h, _ string) core.Env { return core.Env{Home: h} },
			func(h, _ string) string { return filepath.Join(h, ".local", "share", "amp") }},
		{"XDG_DATA_HOME", func(h, x string) core.Env {
			return core.Env{Home: h, Getenv: func(k string) string {
				if k == "XDG_DATA_HOME" {
					return x
				}
				return ""
			}}
		}, func(_, x string) string { return filepath.Join(x, "amp") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, xdg := t.TempDir(), t.TempDir()
			data := tt.data(home, xdg)
			want := scratchThreads(t, data)
			files, problems := New().Discover(tt.env(home, xdg))
			if len(problems) != 0 || !reflect.DeepEqual(files, want) {
				t.Errorf("files %v problems %v, want %v", files, problems, want)
			}
			if root := New().Root(tt.env(home, xdg)); root != data {
				t.Errorf("root %q, want %q", root, data)
			}
		})
	}
}

func TestDiscoverIn(t *testing.T) {
	data := t.TempDir()
	want := scratchThreads(t, data)
	for _, dir := range []string{data, filepath.Join(data, "threads")} {
		files, problems := New().DiscoverIn(dir)
		if len(problems) != 0 || !reflect.DeepEqual(files, want) {
			t.Errorf("DiscoverIn(%s): files %v problems %v", dir, files, problems)
		}
	}
}

func TestDiscoverMissingAndUnreadable(t *testing.T) {
	for _, env := range []core.Env{{Home: t.TempDir()}, {}} {
		if files, problems := New().Discover(env); len(files)+len(problems) != 0 {
			t.Errorf("env %+v: files %v problems %v", env, files, problems)
		}
	}
	home := t.TempDir()
	threads := filepath.Join(home, ".local", "share", "amp", "threads")
	p := &Provider{readDir: func(dir string) ([]fs.DirEntry, error) {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrPermission}
	}}
	files, problems := p.Discover(core.Env{Home: home})
	want := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderAmp, Path: threads}}
	if len(files) != 0 || !reflect.DeepEqual(problems, want) {
		t.Errorf("files %v problems %v, want %v", files, problems, want)
	}
}

func TestParseVanished(t *testing.T) {
	_, err := New().Parse(core.SourceFile{Provider: ProviderAmp, Path: filepath.Join(t.TempDir(), "T-gone.json")})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a not-exist error", err)
	}
}
