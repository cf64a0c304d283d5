package claude

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
)

func TestBadInput(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"user","uuid":"u1",` + sid + `,"timestamp":"2026-01-02T03:04:05.000Z","message":{"content":"hello"}}`,
		`{"type":"user","uuid":`, // invalid JSON
		"\x00\x01\xff binary",
		`{"type":"brand-new-thing","uuid":"n1","payload":{"x":1}}`, // unknown type
		`[1,2,3]`,                          // not an object
		`{"uuid":"no-type"}`,               // no type
		`{"type":7}`,                       // type is not a string
		`{"type":"assistant"}`,             // no message
		`{"type":"user","message":"text"}`, // message is not an object
		`{"type":"assistant","uuid":"a1",` + sid + `,"message":{"id":"m1","content":[{"type":"text","text":"hi"},"odd",{"type":"text","text":5}]}}`,
		`{"type":"queue-operation","operation":"enqueue","content":"later"}`,
		`{"type":"user","uuid":"u2","message":{"content":"torn`, // torn last line
	}, "\n")
	res := parseString(t, "d/11111111-2222-3333-4444-555555555555.jsonl", in)
	s := res.Sessions[0]
	var got []string
	for _, e := range s.Events {
		got = append(got, string(e.Type)+":"+e.Key+":"+e.Text)
	}
	want := []string{
		"message:u1:hello",
		`other:n1:{"type":"brand-new-thing","uuid":"n1","payload":{"x":1}}`,
		"message:m1:hi",
		"other:queue-operation:queue enqueue: later",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantProblems := []core.Problem{
		{Code: core.ProblemInvalidJSON, Line: 2}, {Code: core.ProblemBinaryLine, Line: 3},
		{Code: core.ProblemUnknownRecord, Line: 4}, {Code: core.ProblemInvalidRecord, Line: 5},
		{Code: core.ProblemInvalidRecord, Line: 6}, {Code: core.ProblemInvalidRecord, Line: 7},
		{Code: core.ProblemInvalidRecord, Line: 8}, {Code: core.ProblemInvalidRecord, Line: 9},
		{Code: core.ProblemTornLine, Line: 12},
	}
	if len(res.Problems) != len(wantProblems) {
		t.Fatalf("problems %v, want %v", res.Problems, wantProblems)
	}
	for i, w := range wantProblems {
		w.Provider, w.Path = core.ProviderClaude, "d/11111111-2222-3333-4444-555555555555.jsonl"
		if res.Problems[i] != w {
			t.Errorf("problem %d = %+v, want %+v", i, res.Problems[i], w)
		}
	}
	// The queue operation has no timestamp and takes the previous one.
	if ts := s.Events[3].Timestamp; !ts.Equal(s.Events[0].Timestamp) {
		t.Errorf("untimed record at %v", ts)
	}
}

func TestEmptyFile(t *testing.T) {
	res := parseString(t, "d/abc.jsonl", "")
	if len(res.Sessions[0].Events) != 0 || len(res.Problems) != 1 || res.Problems[0].Code != core.ProblemEmptyFile {
		t.Errorf("result %+v", res)
	}
}

func TestLongOtherTextIsClipped(t *testing.T) {
	big := strings.Repeat("é", 10000)
	res := parseString(t, "x.jsonl", lines(
		`{"type":"attachment","uuid":"a","attachment":{"type":"skill_listing","content":"`+big+`"}}`,
		`{"type":"mystery","blob":"`+big+`"}`))
	for _, e := range res.Sessions[0].Events {
		if len(e.Text) > maxOtherText+len("…") || !strings.HasSuffix(e.Text, "…") {
			t.Errorf("%s text of %d bytes", e.Native, len(e.Text))
		}
	}
}

func TestParseMissingFile(t *testing.T) {
	_, err := New().Parse(core.SourceFile{Path: filepath.Join(t.TempDir(), "gone.jsonl")})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v, want fs.ErrNotExist", err)
	}
}

func TestParseBadMeta(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s", "subagents")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agent-a1.jsonl")
	write(t, path, lines(`{"type":"user","uuid":"u",`+sid+`,"agentId":"a1","message":{"content":"go"}}`))
	write(t, filepath.Join(dir, "agent-a1.meta.json"), `{"agentType":`)
	res, err := New().Parse(core.SourceFile{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 1 || res.Problems[0].Code != core.ProblemInvalidJSON || !res.Sessions[0].Session.IsSubagent {
		t.Errorf("problems %v session %+v", res.Problems, res.Sessions[0].Session)
	}
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(lines(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"Exit code 3","is_error":true}]}}`)))
	f.Add([]byte(`{"type":"system","subtype":"compact_boundary","compactMetadata":{"preTokens":"x"}}` + "\n[]\n{\"type\":null}"))
	f.Add([]byte(`{"type":"assistant","message":{"content":"plain"}}` + "\n" + `{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"image"},7]}]}}`))
	for _, path := range fixtureFiles(f) {
		lines := readLines(f, path)
		f.Add(bytes.Join(lines[:min(len(lines), 6)], nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, path := range []string{"", "p/s.jsonl", "p/s/subagents/agent-a.jsonl"} {
			res, err := ParseReader(bytes.NewReader(data), core.SourceFile{Path: path}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Sessions) != 1 || res.Sessions[0].Session.ID.IsZero() {
				t.Fatalf("sessions %+v", res.Sessions)
			}
			ids := map[core.EventID]bool{}
			for _, e := range res.Sessions[0].Events {
				if ids[e.ID] {
					t.Fatalf("duplicate event id %s", e.Key)
				}
				ids[e.ID] = true
			}
		}
	})
}
