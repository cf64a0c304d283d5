package codex

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/regular"
	"ctx/sources/walk"
)

// Provider discovers and parses Codex CLI rollouts.
type Provider struct{}

// New returns the Codex provider.
func New() *Provider { return &Provider{} }

// Name returns the provider id, "codex".
func (*Provider) Name() string { return core.ProviderCodex }

// historyDirs are the directories under the Codex home that hold rollouts.
var historyDirs = []string{"sessions", "archived_sessions"}

// codexHome returns the Codex home: $CODEX_HOME, else <home>/.codex ("" when
// neither is known).
func codexHome(env core.Env) string { return walk.HomeDir(env, "CODEX_HOME", ".codex") }

// Discover lists rollout-*.jsonl files at any depth under sessions/ and
// archived_sessions/ of the Codex home, sorted by path. Missing directories
// are not problems; unreadable ones are.
func (*Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	root := codexHome(env)
	if root == "" {
		return nil, nil
	}
	return discover(os.DirFS(root), root)
}

// discover walks the history directories of fsys, the Codex home at root.
func discover(fsys fs.FS, root string) ([]core.SourceFile, []core.Problem) {
	var files []core.SourceFile
	var problems []core.Problem
	for _, sub := range historyDirs {
		_ = fs.WalkDir(fsys, sub, func(name string, d fs.DirEntry, err error) error {
			path := filepath.Join(root, filepath.FromSlash(name))
			if err != nil {
				if !(name == sub && errors.Is(err, fs.ErrNotExist)) {
					problems = append(problems, core.Problem{Code: core.ProblemUnreadable,
						Provider: core.ProviderCodex, Path: path})
				}
				return nil
			}
			if !d.IsDir() && isRollout(d.Name()) {
				files = append(files, core.SourceFile{Provider: core.ProviderCodex, Path: path})
			}
			return nil
		})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, problems
}

func isRollout(name string) bool {
	return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
}

// Parse reads one rollout file. It fails only when the file cannot be opened
// or read; bad lines are problems.
func (*Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	return regular.Parse(f, "codex: open rollout", ParseReader)
}

// ParseReader parses a rollout from r; f names it (its path, root and group
// are recorded in the session's source). It is pure: it touches nothing but
// r, which makes it the fuzzing entry point.
func ParseReader(r io.Reader, f core.SourceFile) (core.ParseResult, error) {
	p := newParser(f)
	problems, err := jsonl.Read(r, p.line)
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("codex: read rollout: %w", err)
	}
	p.lineProblems(problems)
	return p.finish(), nil
}
