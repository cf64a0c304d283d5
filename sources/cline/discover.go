package cline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"ctx/core"
	"ctx/sources/walk"
)

// editors are the VS Code-family editors whose user data dirs are searched.
var editors = []string{"Code", "Code - Insiders", "Cursor", "VSCodium", "Windsurf"}

// userDirs returns the editors' User directories: under $XDG_CONFIG_HOME
// (else <home>/.config), <home>/Library/Application Support (macOS),
// $APPDATA (Windows) when set, and the VS Code server's data/User.
func userDirs(env core.Env) []string {
	var bases []string
	if x := env.Get("XDG_CONFIG_HOME"); x != "" {
		bases = append(bases, x)
	} else if env.Home != "" {
		bases = append(bases, filepath.Join(env.Home, ".config"))
	}
	if env.Home != "" {
		bases = append(bases, filepath.Join(env.Home, "Library", "Application Support"))
	}
	if a := env.Get("APPDATA"); a != "" {
		bases = append(bases, a)
	}
	if runtime.GOOS == "darwin" && len(bases) > 1 {
		bases[0], bases[1] = bases[1], bases[0]
	}
	var dirs []string
	for _, base := range bases {
		for _, ed := range editors {
			dirs = append(dirs, filepath.Join(base, ed, "User"))
		}
	}
	if env.Home != "" {
		dirs = append(dirs, filepath.Join(env.Home, ".vscode-server", "data", "User"))
	}
	return dirs
}

// storageDirs returns the extension's globalStorage dir in every editor.
func (p *Provider) storageDirs(env core.Env) []string {
	var out []string
	for _, u := range userDirs(env) {
		out = append(out, filepath.Join(u, "globalStorage", p.ext))
	}
	return out
}

// Root returns the extension's storage dir of the first editor that has
// one, else that of VS Code (sources.Rooted).
func (p *Provider) Root(env core.Env) string { return walk.FirstDir(p.storageDirs(env)) }

// Discover lists the tasks of the extension in every editor's storage,
// sorted by path. Missing directories are not problems; unreadable ones
// are.
func (p *Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	d := newDiscovery(p.name)
	for _, dir := range p.storageDirs(env) {
		d.tasks(filepath.Join(dir, "tasks"))
	}
	return d.result()
}

// DiscoverIn lists the tasks under a configured directory: an extension
// storage dir (with tasks/), a tasks dir itself, a globalStorage dir or an
// editor's User dir.
func (p *Provider) DiscoverIn(dir string) ([]core.SourceFile, []core.Problem) {
	d := newDiscovery(p.name)
	for _, cand := range []string{
		filepath.Join(dir, "tasks"),
		filepath.Join(dir, p.ext, "tasks"),
		filepath.Join(dir, "globalStorage", p.ext, "tasks"),
		filepath.Join(dir, "User", "globalStorage", p.ext, "tasks"),
	} {
		d.tasks(cand)
	}
	if filepath.Base(dir) == "tasks" {
		d.tasks(dir)
	}
	return d.result()
}

// discovery collects task files and problems; readDir and stat are the
// file system (tests inject faults).
type discovery struct {
	provider string
	readDir  func(string) ([]fs.DirEntry, error)
	stat     func(string) (fs.FileInfo, error)
	files    []core.SourceFile
	problems []core.Problem
	seen     map[string]bool
}

func newDiscovery(provider string) *discovery {
	return &discovery{provider: provider, readDir: os.ReadDir, stat: os.Stat, seen: map[string]bool{}}
}

// tasks adds every task directory under a tasks dir: its API history with
// the UI log, metadata and history item as companions, or the UI log
// alone when there is no API history.
func (d *discovery) tasks(dir string) {
	entries, err := d.readDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			d.problems = append(d.problems, core.Problem{Code: core.ProblemUnreadable, Provider: d.provider, Path: dir})
		}
		return
	}
	for _, e := range entries {
		task := filepath.Join(dir, e.Name())
		if !e.IsDir() && (e.Type()&fs.ModeSymlink == 0 || !d.isDir(task)) {
			continue
		}
		api, ui := filepath.Join(task, APIFile), filepath.Join(task, UIFile)
		meta, hist := filepath.Join(task, MetadataFile), filepath.Join(task, HistoryItemFile)
		switch {
		case d.isFile(api):
			d.add(core.SourceFile{Provider: d.provider, Path: api, Companions: []string{ui, meta, hist}})
		case d.isFile(ui):
			d.add(core.SourceFile{Provider: d.provider, Path: ui, Companions: []string{meta, hist}})
		}
	}
}

func (d *discovery) add(f core.SourceFile) {
	if !d.seen[f.Path] {
		d.seen[f.Path] = true
		d.files = append(d.files, f)
	}
}

func (d *discovery) result() ([]core.SourceFile, []core.Problem) {
	slices.SortFunc(d.files, func(a, b core.SourceFile) int { return strings.Compare(a.Path, b.Path) })
	return d.files, d.problems
}

// isFile reports whether path is a regular file; a task dir that cannot be
// read is a problem.
func (d *discovery) isFile(path string) bool {
	st, err := d.stat(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		d.problems = append(d.problems, core.Problem{Code: core.ProblemUnreadable, Provider: d.provider, Path: path})
	}
	return err == nil && st.Mode().IsRegular()
}

func (d *discovery) isDir(path string) bool {
	st, err := d.stat(path)
	return err == nil && st.IsDir()
}
