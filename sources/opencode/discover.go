package opencode

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/walk"
)

// DBEnv names OpenCode's database override: an absolute path, or a path
// relative to the data directory (":memory:" keeps no history).
const DBEnv = "OPENCODE_DB"

// mainDB is the database of OpenCode's main release channel; its presence
// also tells that the legacy storage/ directory was migrated into it.
const mainDB = "opencode.db"

// DataDir returns OpenCode's data directory: $XDG_DATA_HOME/opencode, else
// <home>/.local/share/opencode, else "".
func DataDir(env core.Env) string { return walk.DataDir(env, "opencode") }

// Discover lists the databases of the data directory, the database named by
// $OPENCODE_DB, and the sessions of its legacy storage/ directory that
// opencode.db does not hold (see dataDir). Output is sorted by path.
func (p *Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	d := discovery{timeout: p.busyTimeout}
	dir := DataDir(env)
	if dir != "" {
		d.dataDir(dir)
	}
	if db := env.Get(DBEnv); db != "" && db != ":memory:" {
		if !filepath.IsAbs(db) && dir != "" {
			db = filepath.Join(dir, db)
		}
		if filepath.IsAbs(db) {
			d.database(db)
		}
	}
	return d.result()
}

// DiscoverIn lists the same layout under dir, a data directory.
func (p *Provider) DiscoverIn(dir string) ([]core.SourceFile, []core.Problem) {
	d := discovery{timeout: p.busyTimeout}
	d.dataDir(dir)
	return d.result()
}

// discovery collects files and problems.
type discovery struct {
	files    []core.SourceFile
	problems []core.Problem
	timeout  time.Duration // the database busy timeout
}

func (d *discovery) result() ([]core.SourceFile, []core.Problem) {
	slices.SortFunc(d.files, func(a, b core.SourceFile) int { return strings.Compare(a.Path, b.Path) })
	d.files = slices.CompactFunc(d.files, func(a, b core.SourceFile) bool { return a.Path == b.Path })
	return d.files, d.problems
}

// dataDir adds the databases of dir and the sessions of its legacy
// storage/ that opencode.db does not hold. OpenCode's JSON-to-SQLite
// migration (json-migration.ts) copies storage/ into opencode.db once, with
// the same ids, but skips sessions whose project file is missing and files
// it cannot read, and an OpenCode older than 1.2 run after it writes
// storage/ again: those sessions live only in storage/. A session in both
// is read from the database, which OpenCode keeps current. When the
// database's ids cannot be read (locked), storage/ waits for the next
// import, so a stale copy is never read in its place.
func (d *discovery) dataDir(dir string) {
	main := ""
	for _, e := range d.readDir(dir) {
		if !isDatabaseName(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if d.isFile(path, e) {
			d.addDB(path)
			if e.Name() == mainDB {
				main = path
			}
		}
	}
	storage := filepath.Join(dir, "storage")
	if main == "" {
		d.storage(storage, nil)
		return
	}
	if _, err := os.Stat(storage); err != nil {
		return // nothing left of a legacy layout (or nothing ever was)
	}
	migrated, err := sessionIDs(main, d.timeout)
	if err != nil {
		return
	}
	d.storage(storage, migrated)
}

// database adds one database named by path, when it exists.
func (d *discovery) database(path string) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		d.problem(core.ProblemUnreadable, path)
	case st.Mode().IsRegular():
		d.addDB(path)
	}
}

func (d *discovery) addDB(path string) {
	d.files = append(d.files, core.SourceFile{Provider: ProviderID, Path: path,
		Companions: []string{path + "-wal", path + "-shm"}})
}

// readDir lists a directory; a missing one yields nothing, an unreadable
// one a problem and whatever entries could be read.
func (d *discovery) readDir(dir string) []fs.DirEntry {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.problem(core.ProblemUnreadable, dir)
	}
	return entries
}

// isFile reports whether the entry is a regular file, following symlinks.
func (d *discovery) isFile(path string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.Type().IsRegular()
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

func (d *discovery) problem(code, path string) {
	d.problems = append(d.problems, core.Problem{Code: code, Provider: ProviderID, Path: path})
}
