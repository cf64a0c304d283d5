package gemini

import (
	"bytes"
	"os"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures finds shared/fixtures/agents/gemini-cli by walking up from
// the working directory; the repository's sibling "shared" counts too.
func findFixtures() (string, error) {
	return sharedfx.Agent("gemini-cli")
}

// fixtureDir is findFixtures for tests: the real chats are required.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "gemini-cli")
	return dir
}

// parseBytes parses data as the file named path (its extension picks the
// format) with no workspace information.
func parseBytes(t *testing.T, data []byte, path string) core.ParseResult {
	t.Helper()
	res, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: ProviderID, Path: path}, Workspace{})
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return res
}

// only returns the single session of res.
func only(t *testing.T, res core.ParseResult) core.ParsedSession {
	t.Helper()
	if len(res.Sessions) != 1 {
		t.Fatalf("got %d sessions, want 1 (problems %v)", len(res.Sessions), res.Problems)
	}
	return res.Sessions[0]
}

// byType returns the events of type typ.
func byType(ps core.ParsedSession, typ core.EventType) []core.Event {
	var out []core.Event
	for _, e := range ps.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// codes counts problems by code.
func codes(res core.ParseResult) map[string]int {
	out := map[string]int{}
	for _, p := range res.Problems {
		out[p.Code]++
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
