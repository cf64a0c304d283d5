package copilot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ctx/core"
)

// StateDir is the directory of session logs inside the Copilot home.
const StateDir = "session-state"

// Discover lists the session logs under the Copilot home's session-state:
// <uuid>/events.jsonl (with workspace.yaml as a companion) and the flat
// <id>.jsonl of older builds, sorted by path.
func (*Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	home := Home(env)
	if home == "" {
		return nil, nil
	}
	return discoverState(filepath.Join(home, StateDir))
}

// DiscoverIn lists the session logs of a configured Copilot home (a
// directory holding session-state/), or of a session-state directory
// itself.
func (*Provider) DiscoverIn(dir string) ([]core.SourceFile, []core.Problem) {
	if st, err := os.Stat(filepath.Join(dir, StateDir)); err == nil && st.IsDir() {
		dir = filepath.Join(dir, StateDir)
	}
	return discoverState(dir)
}

func discoverState(dir string) ([]core.SourceFile, []core.Problem) {
	var files []core.SourceFile
	var problems []core.Problem
	unreadable := func(p string) {
		problems = append(problems, core.Problem{Code: core.ProblemUnreadable, Provider: ProviderID, Path: p})
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		unreadable(dir)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case isDir(path, e):
			events := filepath.Join(path, EventsFile)
			st, err := os.Stat(events)
			switch {
			case err == nil && st.Mode().IsRegular():
				files = append(files, core.SourceFile{Provider: ProviderID, Path: events,
					Companions: []string{filepath.Join(path, WorkspaceFile)}})
			case err != nil && !errors.Is(err, fs.ErrNotExist):
				unreadable(path)
			}
		case strings.HasSuffix(e.Name(), ".jsonl"):
			files = append(files, core.SourceFile{Provider: ProviderID, Path: path})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, problems
}

// isDir reports whether the entry is a directory, following a symlink.
func isDir(path string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
