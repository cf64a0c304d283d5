package copilot

import (
	"strings"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures finds shared/fixtures/agents/copilot-cli by walking up from
// the working directory; the repository's sibling "shared" counts too.
func findFixtures() (string, error) {
	return sharedfx.Agent("copilot-cli")
}

// fixtureDir is findFixtures for tests: the real logs are required.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "copilot-cli")
	return dir
}

const (
	fixtureID    = "d5b1506c-19d6-4e6a-818c-89a50c48bb34"
	fixtureLog   = "session-state/" + fixtureID + "/events.jsonl"
	fixtureEdits = "excerpts/events.lines116-121.jsonl"
)

// parseLines parses JSON lines as an events.jsonl named path.
func parseLines(t *testing.T, path string, ws *Workspace, lines ...string) core.ParseResult {
	t.Helper()
	res, err := ParseReader(strings.NewReader(strings.Join(lines, "\n")), core.SourceFile{Provider: ProviderID, Path: path}, ws)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return res
}

func byType(ps core.ParsedSession, types ...core.EventType) []core.Event {
	var out []core.Event
	for _, e := range ps.Events {
		for _, typ := range types {
			if e.Type == typ {
				out = append(out, e)
			}
		}
	}
	return out
}

func texts(es []core.Event) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Text
	}
	return out
}

// ev builds an event line.
func ev(typ, id, ts, data string) string {
	return `{"type":"` + typ + `","data":` + data + `,"id":"` + id + `","timestamp":"` + ts + `","parentId":null}`
}
