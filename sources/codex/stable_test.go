package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
)

func parseBytes(t testing.TB, data []byte, path string) core.ParseResult {
	t.Helper()
	res, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: core.ProviderCodex, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestReparseIdentical: parsing the same file twice gives the same result.
func TestReparseIdentical(t *testing.T) {
	dir := fixtureDir(t)
	for _, fx := range fixtures {
		path := filepath.Join(dir, filepath.FromSlash(fx.rel))
		a := parseFixture(t, path)
		b := parseFixture(t, path)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: re-parse differs", fx.name)
		}
		ids := map[core.EventID]bool{}
		for _, e := range a.Events {
			if ids[e.ID] {
				t.Errorf("%s: duplicate event id %v", fx.name, e.ID)
			}
			ids[e.ID] = true
		}
	}
}

// TestPrefixIDs: every prefix of a rollout (first K lines, and a torn K+1th
// line) yields the first events of the full parse with the same ids, as an
// append-only file grows.
func TestPrefixIDs(t *testing.T) {
	dir := fixtureDir(t)
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			path := filepath.Join(dir, filepath.FromSlash(fx.rel))
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			full := parseBytes(t, data, path).Sessions[0]
			ends := lineEnds(data)
			for k, end := range ends {
				prefix := parseBytes(t, data[:end], path)
				comparePrefix(t, k+1, prefix, full)
				if k+1 < len(ends) {
					torn := parseBytes(t, data[:end+(ends[k+1]-end)/2], path)
					if n := len(torn.Problems); n != 1 || torn.Problems[0].Code != core.ProblemTornLine {
						t.Fatalf("prefix %d + half a line: problems %v, want one torn_line", k+1, torn.Problems)
					}
					comparePrefix(t, k+1, torn, full)
				}
			}
		})
	}
}

func lineEnds(data []byte) []int {
	var ends []int
	for i, b := range data {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		ends = append(ends, len(data))
	}
	return ends
}

func comparePrefix(t *testing.T, k int, prefix core.ParseResult, full core.ParsedSession) {
	t.Helper()
	if len(prefix.Sessions) != 1 {
		t.Fatalf("prefix of %d lines: %d sessions", k, len(prefix.Sessions))
	}
	ps := prefix.Sessions[0]
	if ps.Session.ID != full.Session.ID || len(ps.Events) > len(full.Events) {
		t.Fatalf("prefix of %d lines: session %v with %d events, full %v with %d",
			k, ps.Session.ID, len(ps.Events), full.Session.ID, len(full.Events))
	}
	for i, e := range ps.Events {
		f := full.Events[i]
		if e.ID != f.ID || e.Type != f.Type || e.Text != f.Text {
			t.Fatalf("prefix of %d lines: event %d is %v %s, full parse has %v %s", k, i, e.ID, e.Type, f.ID, f.Type)
		}
	}
}
