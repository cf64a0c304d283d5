package gemini

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"ctx/core"
	"ctx/sources/regular"
)

// ProviderID is the provider id of Gemini CLI.
const ProviderID = "gemini-cli"

// ProblemRewindUnknownTarget counts a $rewindTo record whose target message
// is not in the session (a rewind past the start, or to a message of a part
// of the log that was lost). The rewind is ignored and every message kept.
const ProblemRewindUnknownTarget = "rewind_unknown_target"

// Provider discovers and parses Gemini CLI chat recordings.
type Provider struct{}

var (
	_ core.Provider       = (*Provider)(nil)
	_ core.RootDiscoverer = (*Provider)(nil)
)

// New returns the Gemini CLI provider.
func New() *Provider { return &Provider{} }

// Name returns the provider id, "gemini-cli".
func (*Provider) Name() string { return ProviderID }

// Root returns the Gemini data directory, <home>/.gemini (sources.Rooted).
func (*Provider) Root(env core.Env) string { return dataDir(env) }

// Workspace is what the parser knows about a chat's project from outside
// the chat file: the project root named by the project directory (its
// .project_root, or its slug in projects.json), and every root of
// projects.json by the sha256 hash Gemini names legacy directories with.
type Workspace struct {
	Root   string
	ByHash map[string]string
}

// Parse reads one chat file (session-*.json, session-*.jsonl or a subagent
// <id>.jsonl) and resolves its workspace from .project_root and
// projects.json. It fails only when the chat file cannot be opened or read;
// an error for a file that vanished wraps fs.ErrNotExist.
func (*Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	return regular.Parse(f, "gemini: open chat", func(r io.Reader, f core.SourceFile) (core.ParseResult, error) {
		ws, problems := resolveWorkspace(f.Path)
		res, err := ParseReader(r, f, ws)
		if err != nil {
			return core.ParseResult{}, err
		}
		res.Problems = append(res.Problems, problems...)
		return res, nil
	})
}

// ParseReader parses a chat from r: a whole JSON document when f.Path ends
// in ".json", else a JSONL log. f names the file (its path decides the
// format and, for chats/<parent>/<id>.jsonl, the parent session); ws is the
// workspace found beside it. It touches nothing but r, which makes it the
// fuzzing entry point.
func ParseReader(r io.Reader, f core.SourceFile, ws Workspace) (core.ParseResult, error) {
	b := newBuilder(f, ws)
	if isLegacy(f.Path) {
		data, err := io.ReadAll(r)
		if err != nil {
			return core.ParseResult{}, fmt.Errorf("gemini: read chat: %w", err)
		}
		b.parseDocument(data)
	} else if err := b.parseLog(r); err != nil {
		return core.ParseResult{}, fmt.Errorf("gemini: read chat: %w", err)
	}
	return b.finish(), nil
}

// isLegacy reports whether path is a legacy whole-document chat.
func isLegacy(path string) bool { return strings.HasSuffix(path, ".json") }

// parentFromPath returns the parent session id of a subagent chat stored as
// chats/<parent>/<id>.jsonl, or "".
func parentFromPath(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(filepath.Dir(dir)) != chatsDir {
		return ""
	}
	if p := filepath.Base(dir); p != "." && p != string(filepath.Separator) {
		return p
	}
	return ""
}
