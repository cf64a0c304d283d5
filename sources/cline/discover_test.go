package cline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
)

// scratchTasks lays out tasks under a storage dir and returns the source
// files discovery must list: API histories with their companions, and a
// UI log alone where a task has no API history.
func scratchTasks(t *testing.T, storage string) []core.SourceFile {
	t.Helper()
	tasks := filepath.Join(storage, "tasks")
	full, uiOnly := filepath.Join(tasks, "1700000000000"), filepath.Join(tasks, "1700000000001")
	writeFile(t, filepath.Join(full, APIFile), "[]")
	writeFile(t, filepath.Join(full, UIFile), "[]")
	writeFile(t, filepath.Join(uiOnly, UIFile), "[]")
	writeFile(t, filepath.Join(tasks, "1700000000002", "context_history.json"), "[]") // no history files
	writeFile(t, filepath.Join(tasks, "_index.json"), "{}")                           // not a task dir
	return []core.SourceFile{
		{Provider: ProviderCline, Path: filepath.Join(full, APIFile), Companions: []string{
			filepath.Join(full, UIFile), filepath.Join(full, MetadataFile), filepath.Join(full, HistoryItemFile)}},
		{Provider: ProviderCline, Path: filepath.Join(uiOnly, UIFile), Companions: []string{
			filepath.Join(uiOnly, MetadataFile), filepath.Join(uiOnly, HistoryItemFile)}},
	}
}

func envOf(home string, vars map[string]string) core.Env {
	return core.Env{Home: home, Getenv: func(k string) string { return vars[k] }}
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name    string
		env     func(home, alt string) core.Env
		storage func(home, alt string) string
	}{
		{"vscode linux", func(h, _ string) core.Env { return envOf(h, nil) },
			func(h, _ string) string {
				return filepath.Join(h, ".config", "Code", "User", "globalStorage", ExtensionCline)
			}},
		{"cursor macos", func(h, _ string) core.Env { return envOf(h, nil) },
			func(h, _ string) string {
				return filepath.Join(h, "Library", "Application Support", "Cursor", "User", "globalStorage", ExtensionCline)
			}},
		{"XDG_CONFIG_HOME", func(h, a string) core.Env { return envOf(h, map[string]string{"XDG_CONFIG_HOME": a}) },
			func(_, a string) string { return filepath.Join(a, "VSCodium", "User", "globalStorage", ExtensionCline) }},
		{"APPDATA", func(h, a string) core.Env { return envOf(h, map[string]string{"APPDATA": a}) },
			func(_, a string) string { return filepath.Join(a, "Windsurf", "User", "globalStorage", ExtensionCline) }},
		{"vscode server", func(h, _ string) core.Env { return envOf(h, nil) },
			func(h, _ string) string {
				return filepath.Join(h, ".vscode-server", "data", "User", "globalStorage", ExtensionCline)
			}},
		{"insiders", func(h, _ string) core.Env { return envOf(h, nil) },
			func(h, _ string) string {
				return filepath.Join(h, ".config", "Code - Insiders", "User", "globalStorage", ExtensionCline)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, alt := t.TempDir(), t.TempDir()
			storage := tt.storage(home, alt)
			want := scratchTasks(t, storage)
			// Roo Code's tasks beside Cline's are not Cline's.
			scratchTasks(t, filepath.Join(filepath.Dir(storage), ExtensionRooCode))
			files, problems := NewCline().Discover(tt.env(home, alt))
			if len(problems) != 0 {
				t.Errorf("problems %v", problems)
			}
			if !reflect.DeepEqual(files, want) {
				t.Errorf("files\n got %v\nwant %v", files, want)
			}
			if root := NewCline().Root(tt.env(home, alt)); root != storage {
				t.Errorf("root %q, want %q", root, storage)
			}
		})
	}
}

func TestDiscoverXDGReplacesDotConfig(t *testing.T) {
	home, alt := t.TempDir(), t.TempDir()
	scratchTasks(t, filepath.Join(home, ".config", "Code", "User", "globalStorage", ExtensionKiloCode))
	files, _ := NewKiloCode().Discover(envOf(home, map[string]string{"XDG_CONFIG_HOME": alt}))
	if len(files) != 0 {
		t.Errorf("~/.config read although XDG_CONFIG_HOME is set: %v", files)
	}
}

func TestDiscoverIn(t *testing.T) {
	dir := t.TempDir()
	storage := filepath.Join(dir, "User", "globalStorage", ExtensionRooCode)
	want := scratchTasks(t, storage)
	for i := range want {
		want[i].Provider = ProviderRooCode
	}
	for _, root := range []string{storage, filepath.Join(storage, "tasks"), filepath.Dir(storage),
		filepath.Join(dir, "User"), dir} {
		files, problems := NewRooCode().DiscoverIn(root)
		if len(problems) != 0 || !reflect.DeepEqual(files, want) {
			t.Errorf("DiscoverIn(%s):\n got %v %v\nwant %v", root, files, problems, want)
		}
	}
}

func TestDiscoverMissing(t *testing.T) {
	for _, env := range []core.Env{{Home: t.TempDir()}, {}} {
		if files, problems := NewCline().Discover(env); len(files)+len(problems) != 0 {
			t.Errorf("env %+v: files %v problems %v", env, files, problems)
		}
	}
	if files, problems := NewCline().DiscoverIn(filepath.Join(t.TempDir(), "nope")); len(files)+len(problems) != 0 {
		t.Errorf("missing dir: files %v problems %v", files, problems)
	}
}

func TestDiscoverUnreadable(t *testing.T) {
	storage := filepath.Join(t.TempDir(), ExtensionCline)
	want := scratchTasks(t, storage)
	tasks := filepath.Join(storage, "tasks")
	locked := filepath.Join(tasks, "1700000000001", UIFile)
	tests := []struct {
		name    string
		fault   func(d *discovery)
		files   []core.SourceFile
		problem string
	}{
		{"tasks dir", func(d *discovery) {
			d.readDir = func(string) ([]fs.DirEntry, error) { return nil, fs.ErrPermission }
		}, nil, tasks},
		{"task dir", func(d *discovery) {
			d.stat = func(p string) (fs.FileInfo, error) {
				if p == locked {
					return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrPermission}
				}
				return os.Stat(p)
			}
		}, want[:1], locked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiscovery(ProviderCline)
			tt.fault(d)
			d.tasks(tasks)
			files, problems := d.result()
			wantP := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderCline, Path: tt.problem}}
			if !reflect.DeepEqual(problems, wantP) || !reflect.DeepEqual(files, tt.files) {
				t.Errorf("files %v problems %v, want %v %v", files, problems, tt.files, wantP)
			}
		})
	}
}

func TestNew(t *testing.T) {
	for _, id := range []string{ProviderCline, ProviderRooCode, ProviderKiloCode} {
		p, err := New(id)
		if err != nil || p.Name() != id {
			t.Errorf("New(%q) = %v, %v", id, p, err)
		}
	}
	if _, err := New("claude-code"); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("New(claude-code) err %v", err)
	}
	if got := NewKiloCode().ExtensionID(); got != ExtensionKiloCode {
		t.Errorf("kilo extension %q", got)
	}
	if len(All()) != 3 {
		t.Errorf("All() = %d providers", len(All()))
	}
}

func TestParseVanished(t *testing.T) {
	_, err := NewCline().Parse(core.SourceFile{Provider: ProviderCline, Path: filepath.Join(t.TempDir(), "1", APIFile)})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a not-exist error", err)
	}
}
