package opencode

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

func env(home string, vars map[string]string) core.Env {
	return core.Env{Home: home, Getenv: func(k string) string { return vars[k] }}
}

func paths(files []core.SourceFile) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

// scratchDatabases lays out databases and distractors in a data directory
// and returns the databases in sorted order.
func scratchDatabases(t *testing.T, dir string) []string {
	t.Helper()
	want := []string{filepath.Join(dir, "opencode-beta.db"), filepath.Join(dir, "opencode.db")}
	for _, p := range want {
		touch(t, p)
	}
	for _, name := range []string{"opencode.db-wal", "opencode.db-shm", "opencode.db.bak", "notes.db",
		"opencode-beta.db-wal", "storage/session/global/ses_a.json", "log/opencode.db"} {
		touch(t, filepath.Join(dir, filepath.FromSlash(name)))
	}
	return want
}

func TestDiscoverDatabases(t *testing.T) {
	tests := []struct {
		name string
		env  func(home, other string) core.Env
		dir  func(home, other string) string
		want func(dbs []string, home, other string) []string
	}{
		{"home", func(h, _ string) core.Env { return env(h, nil) },
			func(h, _ string) string { return filepath.Join(h, ".local", "share", "opencode") },
			func(dbs []string, _, _ string) []string { return dbs }},
		{"XDG_DATA_HOME", func(h, o string) core.Env { return env(h, map[string]string{"XDG_DATA_HOME": o}) },
			func(_, o string) string { return filepath.Join(o, "opencode") },
			func(dbs []string, _, _ string) []string { return dbs }},
		{"OPENCODE_DB absolute", func(h, o string) core.Env {
			return env(h, map[string]string{DBEnv: filepath.Join(o, "custom.sqlite")})
		}, func(h, _ string) string { return filepath.Join(h, ".local", "share", "opencode") },
			func(dbs []string, _, o string) []string { return append(dbs, filepath.Join(o, "custom.sqlite")) }},
		{"OPENCODE_DB relative", func(h, _ string) core.Env {
			return env(h, map[string]string{DBEnv: "opencode.db"})
		}, func(h, _ string) string { return filepath.Join(h, ".local", "share", "opencode") },
			func(dbs []string, _, _ string) []string { return dbs }},
		{"OPENCODE_DB memory", func(h, _ string) core.Env { return env(h, map[string]string{DBEnv: ":memory:"}) },
			func(h, _ string) string { return filepath.Join(h, ".local", "share", "opencode") },
			func(dbs []string, _, _ string) []string { return dbs }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, other := t.TempDir(), t.TempDir()
			touch(t, filepath.Join(other, "custom.sqlite"))
			dbs := scratchDatabases(t, tt.dir(home, other))
			files, problems := New().Discover(tt.env(home, other))
			if len(problems) != 0 {
				t.Errorf("problems %v", problems)
			}
			if got, want := paths(files), tt.want(dbs, home, other); !reflect.DeepEqual(got, want) {
				t.Errorf("files\n got %v\nwant %v", got, want)
			}
			for _, f := range files {
				if f.Provider != ProviderID || !reflect.DeepEqual(f.Companions, []string{f.Path + "-wal", f.Path + "-shm"}) {
					t.Errorf("file %+v", f)
				}
			}
			if root := New().Root(tt.env(home, other)); root != tt.dir(home, other) {
				t.Errorf("root %s", root)
			}
		})
	}
}

// scratchStorage lays out a legacy storage directory: two sessions with
// messages and parts, an orphan message directory and an orphan part
// directory.
func scratchStorage(t *testing.T, dir string) (sessions []core.SourceFile, orphans []core.Problem) {
	t.Helper()
	st := filepath.Join(dir, "storage")
	files := []string{
		"session/global/ses_a.json", "session/proj1/ses_b.json", "session/proj1/notes.txt",
		"message/ses_a/msg_1.json", "message/ses_a/msg_2.json", "part/msg_1/prt_1.json", "part/msg_1/prt_2.json",
		"part/msg_2/prt_3.json", "message/ses_gone/msg_9.json", "part/msg_9/prt_9.json",
		"part/msg_lost/prt_8.json", "project/global.json",
	}
	for _, f := range files {
		touch(t, filepath.Join(st, filepath.FromSlash(f)))
	}
	j := func(s string) string { return filepath.Join(st, filepath.FromSlash(s)) }
	sessions = []core.SourceFile{
		{Provider: ProviderID, Path: j("session/global/ses_a.json"), Companions: []string{
			j("message/ses_a/msg_1.json"), j("part/msg_1/prt_1.json"), j("part/msg_1/prt_2.json"),
			j("message/ses_a/msg_2.json"), j("part/msg_2/prt_3.json")}},
		{Provider: ProviderID, Path: j("session/proj1/ses_b.json")},
	}
	orphans = []core.Problem{
		{Code: ProblemOrphanMessage, Provider: ProviderID, Path: j("message/ses_gone/msg_9.json")},
		{Code: ProblemOrphanPart, Provider: ProviderID, Path: j("part/msg_lost/prt_8.json")},
	}
	return sessions, orphans
}

func TestDiscoverLegacyStorage(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".local", "share", "opencode")
	wantFiles, wantProblems := scratchStorage(t, dir)
	files, problems := New().Discover(env(home, nil))
	if !reflect.DeepEqual(files, wantFiles) {
		t.Errorf("files\n got %+v\nwant %+v", files, wantFiles)
	}
	if !reflect.DeepEqual(problems, wantProblems) {
		t.Errorf("problems\n got %v\nwant %v", problems, wantProblems)
	}
	// A channel database does not mark storage/ as migrated; opencode.db does.
	touch(t, filepath.Join(dir, "opencode-dev.db"))
	if files, _ := New().Discover(env(home, nil)); len(files) != 3 {
		t.Errorf("with a channel database: %v", paths(files))
	}
	touch(t, filepath.Join(dir, "opencode.db"))
	files, problems = New().Discover(env(home, nil))
	want := []string{filepath.Join(dir, "opencode-dev.db"), filepath.Join(dir, "opencode.db")}
	if !reflect.DeepEqual(paths(files), want) || len(problems) != 0 {
		t.Errorf("migrated storage: files %v problems %v", paths(files), problems)
	}
}

func TestDiscoverIn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "backup")
	wantFiles, wantProblems := scratchStorage(t, dir)
	files, problems := New().DiscoverIn(dir)
	if !reflect.DeepEqual(files, wantFiles) || !reflect.DeepEqual(problems, wantProblems) {
		t.Errorf("files %v problems %v", paths(files), problems)
	}
	dbs := scratchDatabases(t, dir)
	files, problems = New().DiscoverIn(dir)
	if !reflect.DeepEqual(paths(files), dbs) || len(problems) != 0 {
		t.Errorf("files %v problems %v, want %v", paths(files), problems, dbs)
	}
}

func TestDiscoverMissingAndUnreadable(t *testing.T) {
	home := t.TempDir()
	for _, e := range []core.Env{env(home, nil), {}, env(home, map[string]string{DBEnv: "/nonexistent/x.db"})} {
		if files, problems := New().Discover(e); len(files)+len(problems) != 0 {
			t.Fatalf("missing data dir: files %v problems %v", files, problems)
		}
	}
	// A path that should be a directory but is a file cannot be listed.
	dir := filepath.Join(home, ".local", "share", "opencode")
	touch(t, filepath.Join(dir, "storage", "session", "global", "ses_a.json"))
	touch(t, filepath.Join(dir, "storage", "message", "ses_a"))
	files, problems := New().Discover(env(home, nil))
	want := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID,
		Path: filepath.Join(dir, "storage", "message", "ses_a")}}
	if len(files) != 1 || !reflect.DeepEqual(problems, want) {
		t.Errorf("files %v problems %v", paths(files), problems)
	}
	if os.Geteuid() == 0 {
		t.Skip("permissions are not enforced for root")
	}
	if err := os.Chmod(dir, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	_, problems = New().Discover(env(home, nil))
	if want := []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID, Path: dir}}; !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
}

func TestParseVanished(t *testing.T) {
	for _, name := range []string{"opencode.db", "ses_gone.json"} {
		_, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: filepath.Join(t.TempDir(), name)})
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: err = %v, want a not-exist error", name, err)
		}
	}
}
