package cursor

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"ctx/core"
	"ctx/sources/walk"
)

// dbName is the file name of Cursor's databases.
const dbName = "state.vscdb"

// userDirs returns Cursor's user directories for env: the Linux one
// ($XDG_CONFIG_HOME/Cursor/User, else <home>/.config/Cursor/User), the
// macOS one (<home>/Library/Application Support/Cursor/User) and the
// Windows one (%APPDATA%\Cursor\User), without duplicates.
func userDirs(env core.Env) []string {
	var dirs []string
	if x := env.Get("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		dirs = append(dirs, filepath.Join(x, "Cursor", "User"))
	} else if env.Home != "" {
		dirs = append(dirs, filepath.Join(env.Home, ".config", "Cursor", "User"))
	}
	if env.Home != "" {
		dirs = append(dirs, filepath.Join(env.Home, "Library", "Application Support", "Cursor", "User"))
	}
	if a := env.Get("APPDATA"); filepath.IsAbs(a) {
		dirs = append(dirs, filepath.Join(a, "Cursor", "User"))
	}
	return slices.Compact(dirs)
}

// Root returns the Cursor user directory that exists, else the first
// candidate (sources.Rooted); "" when no home is known.
func (*Provider) Root(env core.Env) string { return walk.FirstDir(userDirs(env)) }

// Discover lists the global and per-workspace state.vscdb databases of
// every Cursor user directory, sorted by path. Missing directories are not
// problems; unreadable ones are.
func (*Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	d := newDiscovery()
	for _, dir := range userDirs(env) {
		d.userDir(dir)
	}
	return d.result()
}

// DiscoverIn lists the databases under dir, a Cursor user directory
// (holding globalStorage/ and workspaceStorage/) or the Cursor config
// directory above it (holding User/).
func (*Provider) DiscoverIn(dir string) ([]core.SourceFile, []core.Problem) {
	d := newDiscovery()
	d.userDir(dir)
	d.userDir(filepath.Join(dir, "User"))
	return d.result()
}

// discovery collects files and problems while walking user directories.
// readDir and stat default to the os functions (tests inject failures).
type discovery struct {
	files    []core.SourceFile
	problems []core.Problem
	readDir  func(string) ([]fs.DirEntry, error)
	stat     func(string) (fs.FileInfo, error)
}

func newDiscovery() *discovery { return &discovery{readDir: os.ReadDir, stat: os.Stat} }

func (d *discovery) result() ([]core.SourceFile, []core.Problem) {
	slices.SortFunc(d.files, func(a, b core.SourceFile) int { return strings.Compare(a.Path, b.Path) })
	d.files = slices.CompactFunc(d.files, func(a, b core.SourceFile) bool { return a.Path == b.Path })
	return d.files, d.problems
}

// userDir adds globalStorage/state.vscdb and every
// workspaceStorage/<hash>/state.vscdb of a user directory.
func (d *discovery) userDir(dir string) {
	d.addDB(filepath.Join(dir, "globalStorage", dbName))
	ws := filepath.Join(dir, "workspaceStorage")
	entries, err := d.readDir(ws)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) {
		d.unreadable(ws)
	}
	for _, e := range entries {
		if e.IsDir() || e.Type()&fs.ModeSymlink != 0 {
			hash := filepath.Join(ws, e.Name())
			d.addDB(filepath.Join(hash, dbName), filepath.Join(hash, "workspace.json"))
		}
	}
}

// isNotDir reports a path component that is a file, not a directory.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// addDB adds a database that exists, with its -wal and -shm (and any
// metadata file) as companions.
func (d *discovery) addDB(path string, extra ...string) {
	st, err := d.stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err != nil && isNotDir(err)):
		return
	case err != nil:
		d.unreadable(path)
		return
	case !st.Mode().IsRegular():
		return
	}
	companions := append([]string{path + "-wal", path + "-shm"}, extra...)
	d.files = append(d.files, core.SourceFile{Provider: ProviderID, Path: path, Companions: companions})
}

func (d *discovery) unreadable(path string) {
	d.problems = append(d.problems, core.Problem{Code: core.ProblemUnreadable, Provider: ProviderID, Path: path})
}
