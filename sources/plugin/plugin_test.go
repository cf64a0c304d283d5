package plugin

import (
	"errors"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

func TestParseOutput(t *testing.T) {
	out := strings.Join([]string{
		`{"ctx_plugin": 1}`,
		`{"type":"session","id":"a","workspace":"/w"}`,
		`{"type":"session","id":"b","parent_id":"a"}`,
		`{"type":"event","session":"a","key":"k1","timestamp":"2026-01-02T03:04:05+02:00","role":"user","event_type":"message","text":"hello"}`,
		`{"type":"event","session":"b","key":"k1","role":"tool","event_type":"command_finish","command":"make","exit_code":2}`,
		`{"type":"event","session":"zzz","key":"k","role":"user","event_type":"message"}`,
		`{"type":"event","session":"a","key":"k2","role":"wizard","event_type":"message"}`,
		`{"type":"later-version-record"}`,
		`not json`,
	}, "\n") + "\n"
	res, err := ParseOutput(strings.NewReader(out), "notes", core.SourceFile{Path: "plugin:notes"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 2 {
		t.Fatalf("sessions %d", len(res.Sessions))
	}
	a, b := res.Sessions[0], res.Sessions[1]
	if len(a.Events) != 1 || a.Events[0].Timestamp.Location() != time.UTC || a.Events[0].Timestamp.Hour() != 1 {
		t.Fatalf("session a events: %+v", a.Events)
	}
	if !b.Session.IsSubagent || b.Session.ParentSessionID != a.Session.ID || *b.Events[0].ExitCode != 2 {
		t.Fatalf("session b: %+v", b)
	}
	codes := map[string]int{}
	for _, p := range res.Problems {
		codes[p.Code]++
	}
	if codes[core.ProblemInvalidRecord] != 2 || codes[core.ProblemUnknownRecord] != 1 || codes[core.ProblemInvalidJSON] != 1 {
		t.Fatalf("problems %v", codes)
	}
}

func TestParseOutputRefusesOtherSchema(t *testing.T) {
	for _, out := range []string{"", `{"ctx_plugin": 2}`, `{"type":"session","id":"a"}`} {
		if _, err := ParseOutput(strings.NewReader(out), "p", core.SourceFile{}); !errors.Is(err, ErrSchema) {
			t.Errorf("%q: got %v, want ErrSchema", out, err)
		}
	}
}

func TestRunFailureIsCoded(t *testing.T) {
	p := New("p", []string{"sh", "-c", "exit 3"}, time.Second)
	_, err := p.Parse(core.SourceFile{Path: "plugin:p"})
	var re *core.ReadError
	if !errors.As(err, &re) || re.Code != core.ProblemPluginFailed {
		t.Fatalf("got %v", err)
	}
	slow := New("p", []string{"sleep", "5"}, 50*time.Millisecond)
	start := time.Now()
	if _, err := slow.Parse(core.SourceFile{}); !errors.As(err, &re) || time.Since(start) > 3*time.Second {
		t.Fatalf("timeout not enforced: %v", err)
	}
}
