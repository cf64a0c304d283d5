package gemini

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ctx/core"
	"ctx/sources/walk"
)

// HomeEnv overrides the home directory Gemini CLI keeps its data dir in.
const HomeEnv = "GEMINI_CLI_HOME"

// Names in the Gemini data directory.
const (
	geminiDirName   = ".gemini"
	tmpDir          = "tmp"
	chatsDir        = "chats"
	projectRootFile = ".project_root"
	projectsFile    = "projects.json"
	sessionPrefix   = "session-"
)

// dataDir returns <$GEMINI_CLI_HOME or home>/.gemini, or "" when neither is
// known.
func dataDir(env core.Env) string {
	home := env.Get(HomeEnv)
	if home == "" {
		home = env.Home
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, geminiDirName)
}

// Discover lists the chat files under the data directory's tmp/, sorted by
// path. A missing directory is not a problem; an unreadable one is.
func (*Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	dir := dataDir(env)
	if dir == "" {
		return nil, nil
	}
	return discover(dir)
}

// DiscoverIn lists the chat files of a configured root: a Gemini data
// directory (holding tmp/), or a home directory holding .gemini/.
func (*Provider) DiscoverIn(dir string) ([]core.SourceFile, []core.Problem) {
	if !exists(filepath.Join(dir, tmpDir)) && exists(filepath.Join(dir, geminiDirName, tmpDir)) {
		dir = filepath.Join(dir, geminiDirName)
	}
	return discover(dir)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// discovery collects files and problems while walking a data directory.
type discovery struct {
	walk.Dirs
	files []core.SourceFile
}

func discover(data string) ([]core.SourceFile, []core.Problem) {
	d := discovery{Dirs: walk.Dirs{Provider: ProviderID}}
	tmp := filepath.Join(data, tmpDir)
	projects := filepath.Join(data, projectsFile)
	for _, e := range d.ReadDir(tmp) {
		dir := filepath.Join(tmp, e.Name())
		if d.IsDir(dir, e) {
			d.project(dir, projects)
		}
	}
	slices.SortFunc(d.files, func(a, b core.SourceFile) int { return strings.Compare(a.Path, b.Path) })
	return d.files, d.Problems
}

// project adds the chats of one project directory (a slug or a hash) and
// of its subagent directories chats/<parent>/.
func (d *discovery) project(dir, projects string) {
	companions := workspaceCompanions(dir, projects)
	chats := filepath.Join(dir, chatsDir)
	entries := d.ReadDir(chats)
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		names[e.Name()] = true
	}
	for _, e := range entries {
		path := filepath.Join(chats, e.Name())
		switch name := e.Name(); {
		case d.IsDir(path, e):
			d.subagents(path, companions)
		case isChat(name) && !(strings.HasSuffix(name, ".json") && names[name+"l"]):
			// A legacy .json resumed by a newer Gemini CLI was copied whole
			// into <name>.jsonl, which supersedes it.
			d.add(path, e, companions)
		}
	}
}

// subagents adds the <id>.jsonl chats of one parent session.
func (d *discovery) subagents(dir string, companions []string) {
	for _, e := range d.ReadDir(dir) {
		if strings.HasSuffix(e.Name(), ".jsonl") {
			d.add(filepath.Join(dir, e.Name()), e, companions)
		}
	}
}

// isChat reports whether name is a main chat file. Backups and temp files
// (".jsonl.unreadable-…", ".jsonl.tmp-…") do not match.
func isChat(name string) bool {
	return strings.HasPrefix(name, sessionPrefix) &&
		(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl"))
}

// workspaceCompanions returns the file a project's workspace is read from:
// its .project_root when present, else projects.json when present.
func workspaceCompanions(dir, projects string) []string {
	if p := filepath.Join(dir, projectRootFile); exists(p) {
		return []string{p}
	}
	if exists(projects) {
		return []string{projects}
	}
	return nil
}

func (d *discovery) add(path string, e fs.DirEntry, companions []string) {
	if d.IsFile(path, e) {
		d.files = append(d.files, core.SourceFile{Provider: ProviderID, Path: path,
			Companions: slices.Clone(companions)})
	}
}
