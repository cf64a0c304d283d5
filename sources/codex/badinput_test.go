package codex

import (
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

const metaLine = `{"timestamp":"2025-12-15T11:00:35.387Z","type":"session_meta","payload":{"id":"019b0000-0000-7000-8000-000000000001","timestamp":"2025-12-15T11:00:35.384Z","cwd":"/w","git":{"branch":"dev"}}}`

func userLine(ts, text string) string {
	return `{"timestamp":"` + ts + `","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + text + `"}]}}`
}

func problemCodes(res core.ParseResult) map[string][]int {
	out := map[string][]int{}
	for _, p := range res.Problems {
		out[p.Code] = append(out[p.Code], p.Line)
		if p.Provider != core.ProviderCodex || p.Path != "bad.jsonl" {
			panic("problem without provider or path")
		}
	}
	return out
}

func TestBadInput(t *testing.T) {
	lines := []string{
		metaLine,
		userLine("2025-12-15T11:00:36Z", "first"),
		`{"timestamp":"2025-12-15T11:00:37Z","type":"response_item","payload":{"type":"message",`, // invalid JSON
		"\x00\x01\xff binary",
		`[1,2,3]`, // valid JSON, not an object
		`{"timestamp":"2025-12-15T11:00:38Z","type":"mystery","payload":{"x":1}}`,
		`{"timestamp":"2025-12-15T11:00:39Z","type":"response_item","payload":{"type":"hologram"}}`,
		`{"timestamp":"2025-12-15T11:00:40Z","type":"event_msg","payload":{"type":"new_event_kind"}}`,
		`{"timestamp":"2025-12-15T11:00:41Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"second"}],"id":7}}`,
		userLine("2025-12-15T11:00:42Z", "third"),
		`{"timestamp":"2025-12-15T11:00:43Z","type":"response_item","payload":{"type":"mess`, // torn
	}
	res := parseBytes(t, []byte(strings.Join(lines, "\n")), "bad.jsonl")
	got := problemCodes(res)
	want := map[string][]int{
		core.ProblemInvalidJSON:   {3},
		core.ProblemBinaryLine:    {4},
		core.ProblemInvalidRecord: {5, 9},
		core.ProblemUnknownRecord: {6, 7, 8},
		core.ProblemTornLine:      {11},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems by code and line %v, want %v", got, want)
	}
	s := res.Sessions[0]
	var prompts, others []string
	for _, e := range s.Events {
		switch {
		case e.Type == core.TypeMessage:
			prompts = append(prompts, e.Text)
		case e.Type == core.TypeOther && e.Native != "session_meta":
			others = append(others, e.Native)
		}
	}
	if strings.Join(prompts, ",") != "first,second,third" {
		t.Errorf("prompts %v, want first, second and third kept", prompts)
	}
	if strings.Join(others, ",") != "mystery,hologram,new_event_kind" {
		t.Errorf("unknown records kept as %v", others)
	}
}

func TestEmptyAndGarbageFiles(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		codes []string
	}{
		{"empty", "", []string{core.ProblemEmptyFile}},
		{"blank lines", "\n\n", []string{core.ProblemEmptyFile}},
		{"only torn", `{"timestamp":"x`, []string{core.ProblemTornLine}},
		{"binary", "\x00\x00\x00\n", []string{core.ProblemBinaryLine}},
		{"only arrays", "[]\n[]\n", []string{core.ProblemInvalidRecord, core.ProblemInvalidRecord}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := parseBytes(t, []byte(tt.data), "bad.jsonl")
			if len(res.Sessions) != 0 {
				t.Errorf("sessions %d, want none", len(res.Sessions))
			}
			var codes []string
			for _, p := range res.Problems {
				codes = append(codes, p.Code)
			}
			if strings.Join(codes, ",") != strings.Join(tt.codes, ",") {
				t.Errorf("problems %v, want %v", codes, tt.codes)
			}
		})
	}
}
