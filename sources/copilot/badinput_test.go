package copilot

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

func problemLines(res core.ParseResult) map[string][]int {
	out := map[string][]int{}
	for _, p := range res.Problems {
		out[p.Code] = append(out[p.Code], p.Line)
		if p.Provider != ProviderID || p.Path != "bad.jsonl" {
			panic("problem without provider or path")
		}
	}
	return out
}

func TestBadInput(t *testing.T) {
	res := parseLines(t, "bad.jsonl", nil,
		startLine(idA),
		ev("user.message", "u1", ts, `{"content":"first"}`),
		`{"type":"user.message","data":{"content":"oops"`, // 3: invalid JSON
		"\x00\x01\xff binary",                             // 4
		`[1,2]`,                                           // 5: not an object
		ev("session.hologram", "h1", ts, `{"x":1}`),       // 6: unknown type
		ev("user.message", "u2", ts, `{"content":7}`),     // 7: wrong field type
		`{"data":{"content":"no type"}}`,                  // 8: no type
		ev("user.message", "u3", ts, `{"content":"third"}`),
		ev("tool.execution_complete", "e1", ts, `{"toolCallId":"c1","success":true,"result":"text"}`), // 10: wrong shape
		`{"type":"user.message","data":{"content":"tor`,                                               // 11: torn
	)
	want := map[string][]int{
		core.ProblemInvalidJSON:   {3},
		core.ProblemBinaryLine:    {4},
		core.ProblemInvalidRecord: {5, 7, 8, 10},
		core.ProblemUnknownRecord: {6},
		core.ProblemTornLine:      {11},
	}
	if got := problemLines(res); !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	ps := res.Sessions[0]
	var prompts, others []string
	for _, e := range ps.Events {
		switch {
		case e.Type == core.TypeMessage && e.Text != "":
			prompts = append(prompts, e.Text)
		case e.Type == core.TypeOther && e.Native != "session.start":
			others = append(others, e.Native)
		}
	}
	if strings.Join(prompts, ",") != "first,third" {
		t.Errorf("prompts %v, want first and third kept", prompts)
	}
	if strings.Join(others, ",") != "session.hologram,unknown" {
		t.Errorf("unknown records kept as %q", others)
	}
}

func TestEmptyAndGarbage(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		codes []string
	}{
		{"empty", "", []string{core.ProblemEmptyFile}},
		{"blank lines", "\n\n", []string{core.ProblemEmptyFile}},
		{"only torn", `{"type":"x`, []string{core.ProblemTornLine}},
		{"only arrays", "[]\n[]\n", []string{core.ProblemInvalidRecord, core.ProblemInvalidRecord}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := parseLines(t, "bad.jsonl", nil, tt.data)
			var codes []string
			for _, p := range res.Problems {
				codes = append(codes, p.Code)
			}
			if len(res.Sessions) != 0 || !reflect.DeepEqual(codes, tt.codes) {
				t.Errorf("sessions %d problems %v, want none and %v", len(res.Sessions), codes, tt.codes)
			}
		})
	}
}

// TestGrowth parses every line prefix of the real log: event ids seen in a
// prefix must all exist in the whole file.
func TestGrowth(t *testing.T) {
	path := filepath.Join(fixtureDir(t), filepath.FromSlash(fixtureLog))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[core.EventID]bool{}
	for _, e := range parseLines(t, path, nil, string(data)).Sessions[0].Events {
		ids[e.ID] = true
	}
	for cut := 0; cut < len(data); cut++ {
		if data[cut] != '\n' {
			continue
		}
		res := parseLines(t, path, nil, string(data[:cut+1]))
		for _, s := range res.Sessions {
			for _, e := range s.Events {
				if !ids[e.ID] {
					t.Fatalf("prefix of %d bytes: event %q %s not in the whole file", cut+1, e.Key, e.Type)
				}
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(startLine(idA) + "\n" + ev("user.message", "u1", ts, `{"content":"hi"}`) + "\n"))
	f.Add([]byte(ev("assistant.message", "m", ts, `{"messageId":"m","toolRequests":[{"toolCallId":"c","name":"bash","arguments":{"command":"ls"}}]}`) + "\n" +
		ev("tool.execution_complete", "e", ts, `{"toolCallId":"c","success":true,"result":{"content":"<exited with exit code 1>"}}`)))
	f.Add([]byte(`{"type":"tool.execution_start","data":{"toolCallId":"x","toolName":"apply_patch","arguments":"*** Add File: \n*** Update File: a","mcpServerName":"s"},"agentId":"a"}` + "\n[]\n\x00"))
	if dir, err := findFixtures(); err == nil {
		for _, rel := range []string{fixtureLog, fixtureEdits} {
			if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))); err == nil {
				f.Add(data[:min(len(data), 16<<10)])
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: ProviderID, Path: "fuzz.jsonl"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Sessions {
			if s.Session.EventCount != len(s.Events) || s.Session.ID.IsZero() {
				t.Fatalf("session %+v not finalized", s.Session)
			}
			for _, e := range s.Events {
				for _, ft := range e.Files {
					if ft.Path == "" || ft.Op == "" {
						t.Fatalf("file touch without path or op: %+v", ft)
					}
				}
			}
		}
	})
}
