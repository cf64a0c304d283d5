package corpus_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"ctx/internal/corpus"
)

// sample returns one shared-corpus file of each layout kind.
func sample(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, rel := range files(t, sharedHome) {
		kind := layoutKind(rel)
		if _, ok := out[kind]; !ok && kind != "meta" {
			out[kind] = filepath.Join(sharedHome, rel)
		}
	}
	return out
}

// copyTo copies src into dir, keeping the .codex marker in the path so the
// test counter picks the format.
func copyTo(t *testing.T, src, dir string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "claude", "s.jsonl")
	if layoutKind(mustRel(t, src)) == "rollout" {
		dst = filepath.Join(dir, ".codex", "s.jsonl")
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return dst
}

func mustRel(t *testing.T, p string) string {
	rel, err := filepath.Rel(sharedHome, p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

func TestAppend(t *testing.T) {
	for kind, src := range sample(t) {
		t.Run(kind, func(t *testing.T) {
			path := copyTo(t, src, t.TempDir())
			before := countFile(t, path)
			old, _ := os.ReadFile(path)
			for round := range 2 {
				n, err := corpus.Append(path, 300, 7)
				if err != nil {
					t.Fatal(err)
				}
				if n < 285 || n > 330 {
					t.Errorf("round %d: appended %d events, want about 300", round, n)
				}
				after := countFile(t, path)
				if after != before+n {
					t.Errorf("round %d: file grew from %d to %d events, Append said %d", round, before, after, n)
				}
				before = after
			}
			now, _ := os.ReadFile(path)
			if !bytes.HasPrefix(now, old) || len(now) <= len(old) {
				t.Fatal("Append did not only add to the file")
			}
			checkContinues(t, path, bytes.Count(old, []byte{'\n'}))
		})
	}
}

// checkContinues checks that appended lines keep the session and chain,
// move time forward and use fresh ids.
func checkContinues(t *testing.T, path string, oldLines int) {
	t.Helper()
	type ids struct {
		UUID      string  `json:"uuid"`
		Parent    *string `json:"parentUuid"`
		SessionID string  `json:"sessionId"`
		Timestamp string  `json:"timestamp"`
		Payload   struct {
			CallID string `json:"call_id"`
			Type   string `json:"type"`
		} `json:"payload"`
	}
	seen := map[string]bool{}
	var lastTS, lastUUID, session string
	checkedTime := false
	for i, raw := range lines(t, path) {
		var l ids
		mustUnmarshal(t, raw, &l)
		key := l.UUID
		if l.Payload.Type == "function_call" || l.Payload.Type == "custom_tool_call" {
			key = l.Payload.CallID
		}
		if key != "" && seen[key] {
			t.Fatalf("line %d: id %s used twice", i+1, key)
		}
		seen[key] = true
		if i >= oldLines && l.Timestamp != "" && !checkedTime {
			if l.Timestamp <= lastTS {
				t.Fatalf("line %d: appended timestamp %s not after %s", i+1, l.Timestamp, lastTS)
			}
			checkedTime = true
		}
		if i >= oldLines && l.UUID != "" && lastUUID != "" && (l.Parent == nil || *l.Parent != lastUUID) {
			t.Fatalf("line %d: parentUuid does not continue the chain", i+1)
		}
		if l.SessionID != "" && session != "" && l.SessionID != session {
			t.Fatalf("line %d: sessionId changed", i+1)
		}
		lastTS = max(lastTS, l.Timestamp)
		if l.UUID != "" {
			lastUUID = l.UUID
		}
		if l.SessionID != "" {
			session = l.SessionID
		}
	}
}

func TestAppendDeterministic(t *testing.T) {
	src := sample(t)["rollout"]
	a, b := copyTo(t, src, t.TempDir()), copyTo(t, src, t.TempDir())
	for _, p := range []string{a, b} {
		if _, err := corpus.Append(p, 100, 3); err != nil {
			t.Fatal(err)
		}
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if !bytes.Equal(x, y) {
		t.Fatal("same seed appended different bytes")
	}
}

func TestAppendNoFinalNewline(t *testing.T) {
	path := copyTo(t, sample(t)["session"], t.TempDir())
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, bytes.TrimSuffix(b, []byte{'\n'}), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Append(path, 50, 1); err != nil {
		t.Fatal(err)
	}
	if got := lines(t, path); len(got) <= bytes.Count(b, []byte{'\n'}) {
		t.Fatal("nothing appended")
	}
}

func TestAppendRejects(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.jsonl")
	b, _ := json.Marshal(map[string]string{"hello": "world"})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Append(path, 10, 1); err == nil {
		t.Error("Append accepted a file that is not a session")
	}
	if _, err := corpus.Append(filepath.Join(dir, "missing.jsonl"), 10, 1); err == nil {
		t.Error("Append accepted a missing file")
	}
}
