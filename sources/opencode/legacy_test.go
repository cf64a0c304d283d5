package opencode

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLegacyBadInput reads a legacy session caught mid-rewrite: a torn
// message file and a torn part file are counted, the rest is kept.
func TestLegacyBadInput(t *testing.T) {
	st := filepath.Join(t.TempDir(), "storage")
	j := func(s string) string { return filepath.Join(st, filepath.FromSlash(s)) }
	write(t, j("session/proj/ses_c.json"), `{"id":"ses_c","parentID":"ses_b","directory":"/w","title":"child","time":{"created":3}}`)
	write(t, j("session/proj/ses_b.json"), `{"id":"ses_b","parentID":"ses_a","time":{"created":2}}`)
	write(t, j("session/global/ses_a.json"), `{"id":"ses_a","time":{"created":1}}`)
	write(t, j("message/ses_c/msg_1.json"), `{"id":"msg_1","role":"user","time":{"created":10}}`)
	write(t, j("message/ses_c/msg_2.json"), `{"id":"msg_2","role":"assistant","time":{"crea`)
	write(t, j("message/ses_c/msg_3.json"), `{"id":"msg_3","role":"assistant","agent":"explore","time":{"created":30}}`)
	write(t, j("part/msg_1/prt_1.json"), `{"type":"text","text":"go"}`)
	write(t, j("part/msg_2/prt_2.json"), `{"type":"text","text":"lost with its message"}`)
	write(t, j("part/msg_3/prt_3.json"), `{"type":"text","te`)
	write(t, j("part/msg_3/prt_4.json"), `{"type":"text","text":"done"}`)
	res := parseFile(t, New(), j("session/proj/ses_c.json"))
	want := []core.Problem{
		{Code: core.ProblemInvalidJSON, Provider: ProviderID, Path: j("message/ses_c/msg_2.json")},
		{Code: core.ProblemInvalidJSON, Provider: ProviderID, Path: j("part/msg_3/prt_3.json")},
	}
	if !reflect.DeepEqual(res.Problems, want) {
		t.Errorf("problems\n got %v\nwant %v", res.Problems, want)
	}
	s := res.Sessions[0]
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, e.Text)
	}
	if !reflect.DeepEqual(texts, []string{"go", "done"}) {
		t.Errorf("events %q", texts)
	}
	ss := s.Session
	if !ss.IsSubagent || ss.ParentSessionID != core.NewSessionID(ProviderID, "ses_b") ||
		ss.RootSessionID != core.NewSessionID(ProviderID, "ses_a") || ss.AgentType != "explore" {
		t.Errorf("links %+v", ss)
	}
}

func TestLegacyTornSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "storage", "session", "global", "ses_x.json")
	write(t, path, `{"id":"ses_x","ti`)
	res := parseFile(t, New(), path)
	want := []core.Problem{{Code: core.ProblemInvalidJSON, Provider: ProviderID, Path: path}}
	if !reflect.DeepEqual(res.Problems, want) || len(res.Sessions) != 0 {
		t.Errorf("problems %v sessions %d", res.Problems, len(res.Sessions))
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{"ses_4567b0e1affeRu0da2D26ls6sf": true, "a-b": true,
		"": false, "../x": false, "a/b": false, "*": false} {
		if validID(id) != want {
			t.Errorf("validID(%q) = %v", id, !want)
		}
	}
}
