package amp

import (
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures finds shared/fixtures/agents/amp by walking up from the
// working directory; the repository's sibling "shared" counts too.
func findFixtures() (string, error) {
	return sharedfx.Agent("amp")
}

// fixtureDir is findFixtures for tests: the real threads are required.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "amp")
	return dir
}

// parseThread parses one real thread and requires one session and no
// problems.
func parseThread(t *testing.T, name string) core.ParsedSession {
	t.Helper()
	res, err := New().Parse(core.SourceFile{Provider: ProviderAmp, Path: filepath.Join(fixtureDir(t), "threads", name)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 || len(res.Sessions) != 1 {
		t.Fatalf("problems %v, %d sessions", res.Problems, len(res.Sessions))
	}
	return res.Sessions[0]
}

func parse(data string) core.ParseResult {
	return ParseBytes([]byte(data), core.SourceFile{Provider: ProviderAmp, Path: "/x/threads/T-x.json"})
}

// shape renders events as type/role[/native] for order checks.
func shape(events []core.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = string(e.Type) + "/" + string(e.Role)
		if e.Native != "" {
			out[i] += "/" + e.Native
		}
	}
	return out
}

func checkShape(t *testing.T, ps core.ParsedSession, want []string) {
	t.Helper()
	if got := shape(ps.Events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events\n got %q\nwant %q", got, want)
	}
}
