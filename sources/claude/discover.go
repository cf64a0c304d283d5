package claude

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"ctx/core"
	"ctx/sources/walk"
)

// ConfigDirEnv relocates the Claude Code history root.
const ConfigDirEnv = "CLAUDE_CONFIG_DIR"

// HistoryRoot returns $CLAUDE_CONFIG_DIR, else <home>/.claude, else "".
func HistoryRoot(env core.Env) string { return walk.HomeDir(env, ConfigDirEnv, ".claude") }

// Discover lists projects/<slug>/*.jsonl (sessions and old-layout subagents)
// and projects/<slug>/<session>/subagents/agent-*.jsonl under the history
// root, sorted by path. A missing root or directory is not a problem; an
// unreadable one is reported and skipped.
func (p *Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	root := HistoryRoot(env)
	if root == "" {
		return nil, nil
	}
	return p.DiscoverIn(root)
}

// DiscoverIn lists the history of a Claude Code config directory at root
// (a configured root: a backup, another machine's ~/.claude).
func (*Provider) DiscoverIn(root string) ([]core.SourceFile, []core.Problem) {
	d := discovery{Dirs: walk.Dirs{Provider: core.ProviderClaude}}
	projects := filepath.Join(root, "projects")
	for _, slug := range d.ReadDir(projects) {
		if dir := filepath.Join(projects, slug.Name()); d.IsDir(dir, slug) {
			d.project(dir)
		}
	}
	slices.SortFunc(d.files, func(a, b core.SourceFile) int { return strings.Compare(a.Path, b.Path) })
	return d.files, d.Problems
}

// discovery collects files and problems while walking the history root.
type discovery struct {
	walk.Dirs
	files []core.SourceFile
}

// project adds a project's transcripts and its sessions' subagents.
func (d *discovery) project(dir string) {
	for _, e := range d.ReadDir(dir) {
		path := filepath.Join(dir, e.Name())
		switch {
		case strings.HasSuffix(e.Name(), ".jsonl"):
			d.addFile(path, e)
		case d.IsDir(path, e):
			d.subagents(filepath.Join(path, "subagents"))
		}
	}
}

// subagents adds the agent-*.jsonl transcripts of a new-layout session.
func (d *discovery) subagents(dir string) {
	for _, e := range d.ReadDir(dir) {
		name := e.Name()
		if strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl") {
			d.addFile(filepath.Join(dir, name), e)
		}
	}
}

func (d *discovery) addFile(path string, e fs.DirEntry) {
	if d.IsFile(path, e) {
		d.files = append(d.files, core.SourceFile{Provider: core.ProviderClaude, Path: path})
	}
}
