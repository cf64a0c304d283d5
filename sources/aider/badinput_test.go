package aider

import (
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

func problemLines(res core.ParseResult) map[string][]int {
	out := map[string][]int{}
	for _, p := range res.Problems {
		out[p.Code] = append(out[p.Code], p.Line)
		if p.Provider != ProviderID || p.Path != "bad.md" {
			panic("problem without provider or path")
		}
	}
	return out
}

func TestBadInput(t *testing.T) {
	lines := []string{
		"stray text before any header", // 1: kept, invalid_record
		"",
		"# aider chat started at 2025-06-02 11:47:49", // 3
		"",
		"#### first  ",    // 5
		"\x00\x01 binary", // 6
		"",
		"reply one", // 8
		"",
		"# aider chat started at yesterday", // 10: unreadable time
		"",
		"#### second  ",
		"\xff\xfe not utf-8", // 13
		"",
		"# aider chat started at 2025-06-02 11:47:49", // 15: repeated header
		"",
		"#### third  ",
		"",
		"#### torn", // 19: no newline
	}
	res := parseText(t, strings.Join(lines, "\n"), "bad.md")
	want := map[string][]int{
		core.ProblemInvalidRecord: {1, 10},
		core.ProblemReplacedBytes: {6, 13}, // kept, the bad bytes replaced
		core.ProblemTornLine:      {19},
	}
	if got := problemLines(res); !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	var natives, prompts []string
	for _, s := range res.Sessions {
		natives = append(natives, strings.TrimPrefix(s.Session.NativeID, "bad.md#"))
		for _, e := range byType(s, core.TypeMessage) {
			prompts = append(prompts, e.Text)
		}
	}
	if w := []string{"", "2025-06-02 11:47:49", "yesterday", "2025-06-02 11:47:49~1"}; !reflect.DeepEqual(natives, w) {
		t.Errorf("sessions %q, want %q", natives, w)
	}
	if w := []string{"stray text before any header", "first", "\uFFFD\x01 binary\n\nreply one", "second", "\uFFFD not utf-8", "third"}; !reflect.DeepEqual(prompts, w) {
		t.Errorf("messages %q, want %q", prompts, w)
	}
	if !res.Sessions[2].Session.Started.IsZero() {
		t.Errorf("unreadable time gave %v", res.Sessions[2].Session.Started)
	}
}

func TestEmptyAndLongInput(t *testing.T) {
	tests := []struct {
		name, data string
		codes      []string
		sessions   int
	}{
		{"empty", "", []string{core.ProblemEmptyFile}, 0},
		{"blank lines", "\n\n", nil, 0},
		{"banner only", chat("# aider chat started at 2025-06-02 11:47:49", "> Aider v0.84.0"), nil, 0},
		{"only torn", "# aider chat", []string{core.ProblemTornLine}, 0},
		{"too long", chat("# aider chat started at 2025-06-02 11:47:49", "#### a") + strings.Repeat("x", maxLine+10) + "\n" + chat("#### b"),
			[]string{core.ProblemLineTooLong}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := parseText(t, tt.data, "bad.md")
			var codes []string
			for _, p := range res.Problems {
				codes = append(codes, p.Code)
			}
			if !reflect.DeepEqual(codes, tt.codes) || len(res.Sessions) != tt.sessions {
				t.Errorf("problems %v sessions %d, want %v and %d", codes, len(res.Sessions), tt.codes, tt.sessions)
			}
		})
	}
}

// TestGrowth parses every prefix of the real log that ends at a line
// boundary: each event id seen in a prefix must exist in the whole file, so
// appends never change the ids of earlier events.
func TestGrowth(t *testing.T) {
	data := readFixture(t)
	full := parseText(t, data, "log.md")
	ids := map[core.EventID]bool{}
	for _, s := range full.Sessions {
		for _, e := range s.Events {
			ids[e.ID] = true
		}
	}
	checked := 0
	for cut, n := 0, 0; cut < len(data); cut++ {
		if data[cut] != '\n' {
			continue
		}
		if n++; n%5 != 0 {
			continue
		}
		for _, s := range parseText(t, data[:cut+1], "log.md").Sessions {
			for _, e := range s.Events {
				if !ids[e.ID] {
					t.Fatalf("prefix of %d lines: event %s %q (%.40q) not in the whole file", n, e.Key, e.Type, e.Text)
				}
			}
		}
		checked++
	}
	if checked < 700 {
		t.Errorf("checked %d prefixes", checked)
	}
}
