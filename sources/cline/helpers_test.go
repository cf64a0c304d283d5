package cline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures finds shared/fixtures/agents/cline by walking up from the
// working directory; the repository's sibling "shared" counts too.
func findFixtures() (string, error) {
	return sharedfx.Agent("cline")
}

// fixtureDir is findFixtures for tests: the real task files are required.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "cline")
	return dir
}

// fixtureFiles lists every JSON task file of the fixtures (SOURCE.txt
// aside), as source files of the provider.
func fixtureFiles(t testing.TB, provider string) []core.SourceFile {
	t.Helper()
	var files []core.SourceFile
	err := filepath.WalkDir(fixtureDir(t), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, core.SourceFile{Provider: provider, Path: p})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// parseFile parses one file with the Cline provider and requires exactly
// one session and no problems.
func parseFile(t *testing.T, path string) core.ParsedSession {
	t.Helper()
	res, err := NewCline().Parse(core.SourceFile{Provider: ProviderCline, Path: path})
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	if len(res.Problems) != 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(res.Sessions))
	}
	return res.Sessions[0]
}

// parseTask parses constructed task content as file path.
func parseTask(t *testing.T, task Task, path string) core.ParseResult {
	t.Helper()
	return NewCline().ParseTask(task, core.SourceFile{Provider: ProviderCline, Path: path})
}

func filter(ps core.ParsedSession, keep func(core.Event) bool) []core.Event {
	var out []core.Event
	for _, e := range ps.Events {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

func ofType(ps core.ParsedSession, typ core.EventType) []core.Event {
	return filter(ps, func(e core.Event) bool { return e.Type == typ })
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

func codes(ps []core.Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Code
	}
	return out
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
