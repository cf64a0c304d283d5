package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// fixturesDir finds shared/fixtures/agents/claude-code by walking up from the
// working directory; the shared tree sits next to the repository.
func fixturesDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(sharedfx.Dir(t), "claude-code")
}

// fixtureFiles lists every .jsonl fixture, sorted.
func fixtureFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(fixturesDir(t), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			out = append(out, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 5 {
		t.Fatalf("found %d claude-code fixtures, want at least 5", len(out))
	}
	slices.Sort(out)
	return out
}

// fixture returns the path of a fixture below the claude-code directory.
func fixture(t testing.TB, rel string) string {
	t.Helper()
	return filepath.Join(fixturesDir(t), filepath.FromSlash(rel))
}

// parseFile parses a file through the provider and returns its one session.
func parseFile(t testing.TB, path string) core.ParsedSession {
	t.Helper()
	res, err := New().Parse(core.SourceFile{Provider: core.ProviderClaude, Path: path})
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("parse %s: %d sessions, want 1", path, len(res.Sessions))
	}
	if len(res.Problems) != 0 {
		t.Errorf("parse %s: problems %v", path, res.Problems)
	}
	return res.Sessions[0]
}

// parseString parses in-test JSONL as if it were the file at path.
func parseString(t testing.TB, path, data string) core.ParseResult {
	t.Helper()
	res, err := ParseReader(strings.NewReader(data), core.SourceFile{Provider: core.ProviderClaude, Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(res.Sessions))
	}
	return res
}

// ofType returns the events of one type.
func ofType(s core.ParsedSession, typ core.EventType) []core.Event {
	var out []core.Event
	for _, e := range s.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// byKey returns the event with the key, failing when there is none.
func byKey(t testing.TB, s core.ParsedSession, key string) core.Event {
	t.Helper()
	for _, e := range s.Events {
		if e.Key == key {
			return e
		}
	}
	t.Fatalf("no event with key %q", key)
	return core.Event{}
}

func eventIDs(s core.ParsedSession) []core.EventID {
	out := make([]core.EventID, len(s.Events))
	for i, e := range s.Events {
		out[i] = e.ID
	}
	return out
}

// readLines returns the lines of a file, each with its newline.
func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data) - 1
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

// textMessageIDs counts, independently of the parser, the distinct assistant
// message ids that carry a non-empty text block.
func textMessageIDs(t testing.TB, path string) int {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	ids := map[string]bool{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec["type"] != "assistant" {
			continue
		}
		msg, _ := rec["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			if bm, _ := b.(map[string]any); bm["type"] == "text" && bm["text"] != "" {
				ids[msg["id"].(string)] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return len(ids)
}
