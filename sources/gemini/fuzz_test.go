package gemini

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
)

// FuzzParse feeds arbitrary bytes to both formats: the parser must never
// panic, and every session it returns must be finalized.
func FuzzParse(f *testing.F) {
	f.Add([]byte(chat(metaLine, userLine("u1", "a"), geminiLine("g1", "b"), rewindLine("u1"), rewindLine("zz"))))
	f.Add([]byte(`{"$set":{"messages":[{"id":"a","type":"user","content":[{"functionResponse":{"id":"c","response":{"error":1}}}]}]}}` + "\n" +
		`{"id":"g","type":"gemini","toolCalls":[{"id":"c","name":"run_shell_command","args":{"command":["x"]},"result":[{"functionResponse":{"response":{"output":"Output: \nExit Code: x"}}}]},` +
		`{"id":"d","name":"replace","args":{"file_path":"a","old_string":null},"status":"success","resultDisplay":{"filePath":"C:/a","isNewFile":"yes"}},` +
		`{"name":"mcp__","displayName":" ( MCP Server)","args":null}],"thoughts":[{}]}`))
	f.Add([]byte(`{"sessionId":"s","messages":[{"id":"u","type":"user","content":{"text":"x"}}],"summary":5}`))
	f.Add([]byte("\x00[]\n{\"id\":7}\n{\"$rewindTo\":\"\"}"))
	if dir, err := findFixtures(); err == nil {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.Contains(path, "chats") {
				if data, err := os.ReadFile(path); err == nil && len(data) < 16<<10 {
					f.Add(data)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, path := range []string{"/g/tmp/p/chats/session-x.jsonl", "/g/tmp/p/chats/session-x.json",
			"/g/tmp/p/chats/parent/sub.jsonl"} {
			res, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: ProviderID, Path: path},
				Workspace{ByHash: map[string]string{"h": "/w"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range res.Sessions {
				if s.Session.EventCount != len(s.Events) || s.Session.ID.IsZero() {
					t.Fatalf("session %+v not finalized", s.Session)
				}
				for _, e := range s.Events {
					if e.Type == "" || e.ID.IsZero() {
						t.Fatalf("event %+v", e)
					}
				}
			}
			for _, p := range res.Problems {
				if p.Code == "" || p.Path != path {
					t.Fatalf("problem %+v", p)
				}
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	dir := fixtureDir(b)
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(fixtures[3].rel)))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: ProviderID, Path: "x.jsonl"}, Workspace{}); err != nil {
			b.Fatal(err)
		}
	}
}
