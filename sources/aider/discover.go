package aider

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ctx/core"
)

// MaxDepth bounds how many directory levels below a configured root
// DiscoverIn descends looking for repositories' chat logs.
const MaxDepth = 6

// skipDirs are directories that never hold a repository's own chat log.
var skipDirs = map[string]bool{"node_modules": true, "vendor": true, "__pycache__": true}

// DiscoverIn walks dir (at most MaxDepth levels down, skipping hidden
// directories, node_modules, vendor and symlinked directories) for
// .aider.chat.history.md files, sorted by path. A missing dir is not a
// problem; an unreadable directory is reported and skipped.
func (*Provider) DiscoverIn(dir string) ([]core.SourceFile, []core.Problem) {
	var files []core.SourceFile
	var problems []core.Problem
	walk(dir, 0, &files, &problems)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, problems
}

func walk(dir string, depth int, files *[]core.SourceFile, problems *[]core.Problem) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			*problems = append(*problems, core.Problem{Code: core.ProblemUnreadable, Provider: ProviderID, Path: dir})
		}
		if len(entries) == 0 {
			return
		}
	}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		switch {
		case name == HistoryFile:
			if isFile(path, e) {
				*files = append(*files, core.SourceFile{Provider: ProviderID, Path: path})
			}
		case e.IsDir() && depth < MaxDepth && !strings.HasPrefix(name, ".") && !skipDirs[name]:
			walk(path, depth+1, files, problems)
		}
	}
}

// isFile reports whether the entry is a regular file, following a symlink.
func isFile(path string, e fs.DirEntry) bool {
	if e.Type().IsRegular() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
