package aider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures finds shared/fixtures/agents/aider by walking up from the
// working directory; the repository's sibling "shared" counts too.
func findFixtures() (string, error) {
	return sharedfx.Agent("aider")
}

// fixtureFile is the real chat log, required by the tests.
func fixtureFile(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "aider")
	return filepath.Join(dir, HistoryFile)
}

// parseText parses s as a chat log named path.
func parseText(t *testing.T, s, path string) core.ParseResult {
	t.Helper()
	res, err := ParseReader(strings.NewReader(s), core.SourceFile{Provider: ProviderID, Path: path})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return res
}

// byType returns the events of a session of type typ.
func byType(ps core.ParsedSession, typ core.EventType) []core.Event {
	var out []core.Event
	for _, e := range ps.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// texts returns the texts of events.
func texts(es []core.Event) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Text
	}
	return out
}

// session returns the session whose native id ends with suffix.
func session(t *testing.T, res core.ParseResult, suffix string) core.ParsedSession {
	t.Helper()
	for _, s := range res.Sessions {
		if strings.HasSuffix(s.Session.NativeID, suffix) {
			return s
		}
	}
	t.Fatalf("no session %q", suffix)
	return core.ParsedSession{}
}

// chat builds a chat log the way Aider writes it: a header, then blocks of
// "#### " input, "> " output (with the two-space break) and replies.
func chat(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		switch {
		case strings.HasPrefix(p, "# aider chat started at "):
			b.WriteString("\n" + p + "\n\n")
		case strings.HasPrefix(p, "#### "):
			b.WriteString("\n" + strings.ReplaceAll(p, "\n", "  \n#### ") + "  \n")
		case strings.HasPrefix(p, "> "):
			b.WriteString(strings.ReplaceAll(p, "\n", "  \n") + "  \n")
		default:
			b.WriteString("\n" + p + "\n\n")
		}
	}
	return b.String()
}

// readFixture returns the real chat log's text.
func readFixture(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(fixtureFile(t))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
