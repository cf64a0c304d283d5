// Package walk holds what the providers' discovery shares: listing
// directories and following symlinks, with unreadable paths counted as
// problems instead of stopping discovery.
package walk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"ctx/core"
)

// DataDir is an application's data directory: $XDG_DATA_HOME/name, else
// <home>/.local/share/name ("" when neither is known).
func DataDir(env core.Env, name string) string {
	if x := env.Get("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, name)
	}
	if env.Home == "" {
		return ""
	}
	return filepath.Join(env.Home, ".local", "share", name)
}

// HomeDir is a provider's home: the directory the variable envVar names,
// else <home>/dot ("" when neither is known).
func HomeDir(env core.Env, envVar, dot string) string {
	if dir := env.Get(envVar); dir != "" {
		return dir
	}
	if env.Home == "" {
		return ""
	}
	return filepath.Join(env.Home, dot)
}

// FirstDir returns the first of dirs that is a directory, else the first
// of them ("" when there are none): the root of a provider whose history
// may be in one of several places.
func FirstDir(dirs []string) string {
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	return dirs[0]
}

// Dirs lists directories for one provider's discovery and keeps the
// problems it meets.
type Dirs struct {
	Provider string
	Problems []core.Problem
}

// ReadDir lists a directory; a missing one yields nothing, an unreadable
// one a problem (and whatever entries could be read).
func (d *Dirs) ReadDir(dir string) []fs.DirEntry {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.Unreadable(dir)
	}
	return entries
}

// IsDir reports whether the entry at path is a directory, following
// symlinks. A dangling symlink is skipped; one that cannot be resolved is a
// problem.
func (d *Dirs) IsDir(path string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	st, err := os.Stat(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			d.Unreadable(path)
		}
		return false
	}
	return st.IsDir()
}

// Unreadable records a path that could not be read.
func (d *Dirs) Unreadable(path string) {
	d.Problems = append(d.Problems, core.Problem{Code: core.ProblemUnreadable, Provider: d.Provider, Path: path})
}

// IsFile reports whether the entry at path is to be listed as a history
// file: anything but a directory (following symlinks). A FIFO, socket or
// device is listed too, so that its parse counts it as not_regular
// (sources/regular never opens one for reading) instead of it vanishing
// from discovery without a trace.
func (d *Dirs) IsFile(path string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink != 0 {
		st, err := os.Stat(path)
		return err == nil && !st.IsDir()
	}
	return !e.IsDir()
}
