package gemini

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

// problemLines groups problem lines by code and checks every problem names
// the provider and the file.
func problemLines(t *testing.T, res core.ParseResult, path string) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, p := range res.Problems {
		out[p.Code] = append(out[p.Code], p.Line)
		if p.Provider != ProviderID || p.Path != path {
			t.Errorf("problem %+v without provider or path", p)
		}
	}
	return out
}

func TestBadLog(t *testing.T) {
	lines := []string{
		metaLine,
		userLine("u1", "first"),
		`{"id":"u2","type":"user","content":[{"text":"torn`, // invalid JSON
		"\x00\x01\xff binary",
		`[1,2,3]`,                                     // valid JSON, not an object
		`{"mystery":true}`,                            // no known kind
		`{"id":"m1","type":"hologram","content":"?"}`, // unknown message type
		`{"$rewindTo":7}`,                             // rewind target not a string
		`{"$set":"x"}`,                                // patch not an object
		`{"id":"g1","type":"gemini","content":"ok","thoughts":"not a list"}`, // kept, field of another type
		`{"$rewindTo":"never-seen"}`,
		userLine("u3", "third"),
		`{"id":"u4","type":"user","content":[{"text":"half`, // torn last line
	}
	res := parseBytes(t, []byte(strings.Join(lines, "\n")), "bad.jsonl")
	want := map[string][]int{
		core.ProblemInvalidJSON:    {3},
		core.ProblemBinaryLine:     {4},
		core.ProblemInvalidRecord:  {5, 8, 9, 10},
		core.ProblemUnknownRecord:  {6, 7},
		ProblemRewindUnknownTarget: {11},
		core.ProblemTornLine:       {13},
	}
	if got := problemLines(t, res, "bad.jsonl"); !reflect.DeepEqual(got, want) {
		t.Errorf("problems by code and line %v, want %v", got, want)
	}
	ps := only(t, res)
	if got := keys(ps); !reflect.DeepEqual(got, []string{"u1", "record#1", "m1", "g1", "u3"}) {
		t.Errorf("keys %v", got)
	}
	if e := ps.Events[2]; e.Type != core.TypeOther || e.Native != "message:hologram" {
		t.Errorf("unknown message type kept as %+v", e)
	}
}

func TestBadDocument(t *testing.T) {
	good := `{"sessionId":"s1","projectHash":"h","startTime":"2025-09-16T20:40:32Z","lastUpdated":"2025-09-16T20:41:00Z",` +
		`"messages":[{"id":"u1","timestamp":"2025-09-16T20:40:32Z","type":"user","content":"hi"},` +
		`{"id":"g1","timestamp":"2025-09-16T20:40:40Z","type":"gemini","content":"hello","model":"gemini-2.5-pro"}]}`
	tests := []struct {
		name     string
		data     string
		sessions int
		events   int
		problems map[string]int
	}{
		{"whole", good, 1, 2, nil},
		{"caught mid-rewrite", good[:len(good)/2], 0, 0, map[string]int{core.ProblemInvalidJSON: 1}},
		{"truncated to nothing", "", 0, 0, map[string]int{core.ProblemEmptyFile: 1}},
		{"not an object", `[{"id":"u1"}]`, 0, 0, map[string]int{core.ProblemInvalidRecord: 1}},
		{"no session id", `{"messages":[{"id":"u1","type":"user","content":"hi"}]}`, 1, 1,
			map[string]int{core.ProblemInvalidRecord: 1}},
		{"bad elements", `{"sessionId":"s1","messages":[7,{"type":"user","content":"no id"},{"id":"u1","type":"user","content":"hi"}]}`,
			1, 1, map[string]int{core.ProblemInvalidRecord: 2}},
		{"messages not a list", `{"sessionId":"s1","messages":{}}`, 1, 0, map[string]int{core.ProblemInvalidRecord: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := parseBytes(t, []byte(tt.data), "session-x.json")
			if got := codes(res); len(got) != len(tt.problems) || (len(got) > 0 && !reflect.DeepEqual(got, tt.problems)) {
				t.Errorf("problems %v, want %v", got, tt.problems)
			}
			if len(res.Sessions) != tt.sessions {
				t.Fatalf("%d sessions, want %d", len(res.Sessions), tt.sessions)
			}
			if tt.sessions == 1 && len(res.Sessions[0].Events) != tt.events {
				t.Errorf("%d events, want %d", len(res.Sessions[0].Events), tt.events)
			}
		})
	}
}

// TestDocumentRewriteKeepsIDs checks that the events of a legacy chat keep
// their ids when Gemini CLI rewrites it with one more exchange.
func TestDocumentRewriteKeepsIDs(t *testing.T) {
	doc := func(msgs ...string) []byte {
		return []byte(`{"sessionId":"s1","projectHash":"h","messages":[` + strings.Join(msgs, ",") + `]}`)
	}
	u1 := `{"id":"u1","type":"user","content":"hi"}`
	g1 := `{"id":"g1","type":"gemini","content":"hello"}`
	u2 := `{"id":"u2","type":"user","content":"more"}`
	before := idsByKey(only(t, parseBytes(t, doc(u1, g1), "session-x.json")))
	after := idsByKey(only(t, parseBytes(t, doc(u1, g1, u2), "session-x.json")))
	for k, id := range before {
		if after[k] != id {
			t.Errorf("%s changed id on rewrite", k)
		}
	}
}

func TestEmptyLog(t *testing.T) {
	res := parseBytes(t, nil, "session-x.jsonl")
	if len(res.Sessions) != 0 || !reflect.DeepEqual(codes(res), map[string]int{core.ProblemEmptyFile: 1}) {
		t.Errorf("empty log: %+v", res)
	}
}

func TestParseVanished(t *testing.T) {
	_, err := New().Parse(core.SourceFile{Provider: ProviderID,
		Path: filepath.Join(t.TempDir(), "session-gone.jsonl")})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a not-exist error", err)
	}
}
