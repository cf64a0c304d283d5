package claude

import (
	"io"
	"path/filepath"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
	"ctx/sources/regular"
)

// Provider discovers and parses Claude Code transcripts.
type Provider struct{}

var (
	_ core.Provider     = (*Provider)(nil)
	_ core.StreamParser = (*Provider)(nil)
)

// New returns the Claude Code provider.
func New() *Provider { return &Provider{} }

// Name returns the provider id, claude-code.
func (*Provider) Name() string { return core.ProviderClaude }

// SubagentMeta is the agent-<id>.meta.json beside a new-layout subagent
// transcript.
type SubagentMeta struct {
	AgentType    string `json:"agentType"`
	Description  string `json:"description"`
	WorktreePath string `json:"worktreePath"`
}

// Parse reads one transcript and, for a subagent file, its meta.json. It
// fails only when the transcript cannot be opened or read; an error for a
// file that vanished wraps fs.ErrNotExist.
func (*Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	return regular.Parse(f, openWhat, func(r io.Reader, f core.SourceFile) (core.ParseResult, error) {
		meta, problem := readMeta(f.Path)
		res, err := ParseReader(r, f, meta)
		if err != nil {
			return core.ParseResult{}, err
		}
		if problem != nil {
			res.Problems = append(res.Problems, *problem)
		}
		return res, nil
	})
}

// openWhat prefixes an error opening a transcript.
const openWhat = "claude: open transcript"

// ParseStream reads one transcript as Parse does, handing its session to
// sink a chunk at a time (core.StreamParser).
func (*Provider) ParseStream(f core.SourceFile, sink core.SessionSink) (core.StreamResult, error) {
	return regular.Parse(f, openWhat, func(r io.Reader, f core.SourceFile) (core.StreamResult, error) {
		meta, problem := readMeta(f.Path)
		res, err := ParseStreamReader(r, f, meta, sink)
		if err != nil {
			return core.StreamResult{}, err
		}
		if problem != nil {
			res.Problems = append(res.Problems, *problem)
		}
		return res, nil
	})
}

// metaPath returns the meta.json path of a subagent transcript, or "".
func metaPath(path string) string {
	base := filepath.Base(path)
	if !strings.HasPrefix(base, "agent-") || !strings.HasSuffix(base, ".jsonl") {
		return ""
	}
	return strings.TrimSuffix(path, ".jsonl") + ".meta.json"
}

// readMeta reads a subagent's meta.json. A missing file is no problem; an
// unreadable or invalid one is reported and ignored.
func readMeta(path string) (*SubagentMeta, *core.Problem) {
	mp := metaPath(path)
	data, problem := regular.ReadCompanion(mp, core.ProviderClaude)
	if data == nil {
		return nil, problem
	}
	var m SubagentMeta
	if code := jsonx.Unmarshal(data, &m); code != "" {
		return nil, &core.Problem{Code: code, Provider: core.ProviderClaude, Path: mp}
	}
	return &m, nil
}
