package aider

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/regular"
)

// ProviderID is the provider id of Aider histories.
const ProviderID = "aider"

// HistoryFile is the name of the chat log Aider keeps in each repository.
const HistoryFile = ".aider.chat.history.md"

// HistoryFileEnv is Aider's own override of the chat log path
// (--chat-history-file).
const HistoryFileEnv = "AIDER_CHAT_HISTORY_FILE"

// Provider discovers and parses Aider chat histories.
type Provider struct {
	repos []string // repositories with ctx hooks, whose chat logs Discover lists
}

var _ core.Provider = (*Provider)(nil)
var _ core.RootDiscoverer = (*Provider)(nil)

// New returns the Aider provider.
func New() *Provider { return &Provider{} }

// InRepos returns the Aider provider that also discovers the chat log at
// the root of each of repos (the repositories where ctx hooks are
// installed): Aider keeps one log per repository and no global index.
func InRepos(repos []string) *Provider { return &Provider{repos: repos} }

// Name returns the provider id, "aider".
func (*Provider) Name() string { return ProviderID }

// Root returns the directory of $AIDER_CHAT_HISTORY_FILE when it is an
// absolute path; Aider has no global history directory otherwise.
func (*Provider) Root(env core.Env) string {
	if p := env.Get(HistoryFileEnv); filepath.IsAbs(p) {
		return filepath.Dir(p)
	}
	return ""
}

// Discover returns the chat log named by $AIDER_CHAT_HISTORY_FILE when it is
// an absolute path to an existing file, and the chat log of each repository
// the provider was given (InRepos). Aider keeps one log per repository and
// no global index, so everything else is found by DiscoverIn over
// configured roots.
func (pr *Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	files, problems := envFile(env)
	for _, repo := range pr.repos {
		if f, ok := FindInRepo(repo); ok && !slices.ContainsFunc(files, func(g core.SourceFile) bool { return g.Path == f.Path }) {
			files = append(files, f)
		}
	}
	return files, problems
}

// envFile is the chat log $AIDER_CHAT_HISTORY_FILE names, when it exists.
func envFile(env core.Env) ([]core.SourceFile, []core.Problem) {
	p := env.Get(HistoryFileEnv)
	if !filepath.IsAbs(p) {
		return nil, nil
	}
	st, err := os.Stat(p)
	switch {
	case err == nil && st.Mode().IsRegular():
		return []core.SourceFile{{Provider: ProviderID, Path: p}}, nil
	case err != nil && !os.IsNotExist(err):
		return nil, []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID, Path: p}}
	}
	return nil, nil
}

// FindInRepo returns the chat log at the root of a repository, when there
// is one.
func FindInRepo(repoDir string) (core.SourceFile, bool) {
	p := filepath.Join(repoDir, HistoryFile)
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return core.SourceFile{}, false
	}
	return core.SourceFile{Provider: ProviderID, Path: p}, true
}

// Parse reads one chat log. It fails only when the file cannot be opened or
// read; an error for a file that vanished wraps fs.ErrNotExist.
func (*Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	return regular.Parse(f, "aider: open chat history", ParseReader)
}

// ParseReader parses a chat log from r; f names it. It is pure (it reads
// only r), which makes it the fuzzing entry point.
func ParseReader(r io.Reader, f core.SourceFile) (core.ParseResult, error) {
	var sp splitter
	lines := 0
	problems, err := readLines(r, func(no int, line string) {
		lines++
		sp.line(no, line)
	})
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("aider: read chat history: %w", err)
	}
	res := core.ParseResult{}
	for _, p := range problems {
		res.Problems = append(res.Problems, core.Problem{Code: p.Code, Provider: ProviderID, Path: f.Path, Line: p.Line})
	}
	if lines == 0 && len(problems) == 0 {
		res.Problems = append(res.Problems, core.Problem{Code: core.ProblemEmptyFile, Provider: ProviderID, Path: f.Path})
		return res, nil
	}
	res.Sessions, res.Problems = sessions(sp.sessions, f, res.Problems)
	sort.SliceStable(res.Problems, func(i, j int) bool { return res.Problems[i].Line < res.Problems[j].Line })
	return res, nil
}

// sessions builds the sessions of a file; a section whose header time
// cannot be read (or that precedes any header) is kept and reported.
func sessions(raws []rawSession, f core.SourceFile, problems []core.Problem) ([]core.ParsedSession, []core.Problem) {
	var out []core.ParsedSession
	path := filepath.Clean(f.Path)
	seen := map[string]int{}
	for i := range raws {
		raw := &raws[i]
		ts, ok := headerTime(raw.header)
		if !ok && (raw.line > 0 || len(raw.blocks) > 0) {
			line := raw.line
			if line == 0 {
				line = raw.blocks[0].line
			}
			problems = append(problems, core.Problem{Code: core.ProblemInvalidRecord, Provider: ProviderID, Path: f.Path, Line: line})
		}
		native := path + "#" + raw.header
		if n := seen[native]; n > 0 {
			seen[native] = n + 1
			native = fmt.Sprintf("%s~%d", native, n)
		} else {
			seen[native] = 1
		}
		if ps, ok := build(raw, native, path, ts); ok {
			ps.Session.Source = core.SourceRef{Provider: ProviderID, Path: f.Path, Root: f.Root, Group: f.Group}
			out = append(out, ps)
		}
	}
	return out, problems
}

// headerLayouts are the session start formats: Aider writes local time
// without a zone; a zone, when present, is honoured.
var headerLayouts = []string{"2006-01-02 15:04:05", time.RFC3339Nano, "2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07:00"}

// headerTime parses a session start time. Aider writes the local time of
// the machine without a zone; it is taken as UTC (documented in doc.go).
func headerTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range headerLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
