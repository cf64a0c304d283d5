package copilot

import (
	"fmt"
	"io"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/regular"
	"ctx/sources/walk"
)

// ProviderID is the provider id of GitHub Copilot CLI histories.
const ProviderID = "copilot-cli"

// HomeEnv relocates the Copilot CLI home (default <home>/.copilot).
const HomeEnv = "COPILOT_HOME"

// EventsFile is a session's event log inside its session-state directory.
const EventsFile = "events.jsonl"

// Provider discovers and parses Copilot CLI session logs.
type Provider struct{}

var _ core.Provider = (*Provider)(nil)
var _ core.RootDiscoverer = (*Provider)(nil)

// New returns the Copilot CLI provider.
func New() *Provider { return &Provider{} }

// Name returns the provider id, "copilot-cli".
func (*Provider) Name() string { return ProviderID }

// Home returns $COPILOT_HOME, else <home>/.copilot, else "".
func Home(env core.Env) string { return walk.HomeDir(env, HomeEnv, ".copilot") }

// Root returns the directory Copilot CLI keeps its history in (sources.Rooted).
func (*Provider) Root(env core.Env) string { return Home(env) }

// Parse reads one events.jsonl and, for the directory layout, the
// workspace.yaml beside it. It fails only when the log cannot be opened or
// read; an error for a file that vanished wraps fs.ErrNotExist.
func (*Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	return regular.Parse(f, "copilot: open events", func(r io.Reader, f core.SourceFile) (core.ParseResult, error) {
		ws, problem := readWorkspace(workspacePath(f.Path))
		res, err := ParseReader(r, f, ws)
		if err != nil {
			return core.ParseResult{}, err
		}
		if problem != nil {
			res.Problems = append(res.Problems, *problem)
		}
		return res, nil
	})
}

// ParseReader parses an event log from r with its workspace metadata (nil
// when absent); f names it. It is pure, which makes it the fuzzing entry
// point.
func ParseReader(r io.Reader, f core.SourceFile, ws *Workspace) (core.ParseResult, error) {
	p := newParser(f, ws)
	problems, err := jsonl.Read(r, p.line)
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("copilot: read events: %w", err)
	}
	for _, pr := range problems {
		p.problems = append(p.problems, core.Problem{Code: pr.Code, Provider: ProviderID, Path: f.Path, Line: pr.Line})
	}
	return p.finish(), nil
}
