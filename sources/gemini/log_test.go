package gemini

import (
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

const (
	testSession = "11111111-2222-4333-8444-555555555555"
	metaLine    = `{"sessionId":"` + testSession + `","projectHash":"abc","startTime":"2026-04-25T08:00:00.000Z","lastUpdated":"2026-04-25T08:00:00.000Z","kind":"main"}`
)

func userLine(id, text string) string {
	return `{"id":"` + id + `","timestamp":"2026-04-25T08:01:00.000Z","type":"user","content":[{"text":"` + text + `"}]}`
}

func geminiLine(id, text string) string {
	return `{"id":"` + id + `","timestamp":"2026-04-25T08:02:00.000Z","type":"gemini","content":"` + text + `","model":"m1"}`
}

func rewindLine(id string) string { return `{"$rewindTo":"` + id + `"}` }

func chat(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

// keys returns the event keys of ps in order.
func keys(ps core.ParsedSession) []string {
	out := make([]string, len(ps.Events))
	for i, e := range ps.Events {
		out[i] = e.Key
	}
	return out
}

func idsByKey(ps core.ParsedSession) map[string]core.EventID {
	out := map[string]core.EventID{}
	for _, e := range ps.Events {
		out[e.Key] = e.ID
	}
	return out
}

func TestLogSemantics(t *testing.T) {
	tests := []struct {
		name     string
		lines    []string
		keys     []string
		problems map[string]int
	}{
		{"last record wins in place", []string{metaLine, userLine("u1", "a"), geminiLine("g1", "first"),
			userLine("u2", "b"), geminiLine("g1", "second")}, []string{"u1", "g1", "u2"}, nil},
		{"rewind drops target and tail", []string{metaLine, userLine("u1", "a"), geminiLine("g1", "x"),
			userLine("u2", "b"), geminiLine("g2", "y"), rewindLine("u2"), userLine("u3", "c")},
			[]string{"u1", "g1", "u3"}, nil},
		{"rewind to the first message", []string{metaLine, userLine("u1", "a"), geminiLine("g1", "x"),
			rewindLine("u1")}, []string{}, nil},
		{"rewound id appends again", []string{metaLine, userLine("u1", "a"), userLine("u2", "b"),
			rewindLine("u1"), userLine("u2", "b again"), userLine("u1", "a again")}, []string{"u2", "u1"}, nil},
		{"rewind past the start", []string{metaLine, userLine("u1", "a"), geminiLine("g1", "x"),
			rewindLine("gone"), userLine("u2", "b")}, []string{"u1", "g1", "u2"},
			map[string]int{ProblemRewindUnknownTarget: 1}},
		{"rewind twice to the same id", []string{metaLine, userLine("u1", "a"), userLine("u2", "b"),
			rewindLine("u2"), rewindLine("u2")}, []string{"u1"}, map[string]int{ProblemRewindUnknownTarget: 1}},
		{"set makes no events", []string{metaLine, userLine("u1", "a"), `{"$set":{"lastUpdated":"2026-04-25T09:00:00.000Z","summary":"S"}}`},
			[]string{"u1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := parseBytes(t, chat(tt.lines...), "session-x.jsonl")
			ps := only(t, res)
			if got := keys(ps); !reflect.DeepEqual(got, tt.keys) {
				t.Errorf("keys %v, want %v", got, tt.keys)
			}
			if got := codes(res); len(got) != len(tt.problems) || (len(got) > 0 && !reflect.DeepEqual(got, tt.problems)) {
				t.Errorf("problems %v, want %v", got, tt.problems)
			}
		})
	}
}

// TestRewindKeepsEarlierIDs checks that a rewind changes nothing for the
// messages before its target, and that the text of a message is its last
// record's.
func TestRewindKeepsEarlierIDs(t *testing.T) {
	before := only(t, parseBytes(t, chat(metaLine, userLine("u1", "a"), geminiLine("g1", "x"),
		userLine("u2", "b")), "session-x.jsonl"))
	after := only(t, parseBytes(t, chat(metaLine, userLine("u1", "a"), geminiLine("g1", "x"),
		userLine("u2", "b"), rewindLine("u2"), userLine("u3", "c"), geminiLine("g1", "x2")), "session-x.jsonl"))
	a, b := idsByKey(before), idsByKey(after)
	for _, k := range []string{"u1", "g1"} {
		if a[k] != b[k] || a[k].IsZero() {
			t.Errorf("%s: id %s before the rewind, %s after", k, a[k], b[k])
		}
	}
	if _, ok := b["u2"]; ok {
		t.Error("rewound message u2 still in the session")
	}
	if got := after.Events[1].Text; got != "x2" {
		t.Errorf("g1 text %q, want the last record's", got)
	}
	if after.Session.Title != "" || after.Session.Model != "m1" {
		t.Errorf("title %q model %q", after.Session.Title, after.Session.Model)
	}
}

func TestSetMetadata(t *testing.T) {
	ps := only(t, parseBytes(t, chat(metaLine, userLine("u1", "a"),
		`{"$set":{"lastUpdated":"2026-04-25T09:00:00.000Z","summary":"Check the db","directories":["/w/a","/w/b"]}}`,
		`{"$set":{"sessionId":"other","startTime":"2020-01-01T00:00:00Z"}}`), "session-x.jsonl"))
	s := ps.Session
	if s.NativeID != testSession || s.Title != "Check the db" || s.Workspace != "/w/a" {
		t.Errorf("native %q title %q workspace %q", s.NativeID, s.Title, s.Workspace)
	}
	if got := s.Started.Format("15:04:05"); got != "08:00:00" || s.Ended.Format("15:04:05") != "09:00:00" {
		t.Errorf("started %s ended %s", s.Started, s.Ended)
	}
}

// TestCheckpoint checks $set.messages: messages read before are kept with
// their text, new ones are added after a compaction marker.
func TestCheckpoint(t *testing.T) {
	set := `{"$set":{"lastUpdated":"2026-04-25T08:05:00.000Z","messages":[` +
		`{"id":"snap","timestamp":"2026-04-25T08:05:00.000Z","type":"user","content":[{"text":"<state_snapshot>goal</state_snapshot>"}]},` +
		`{"id":"ack","timestamp":"2026-04-25T08:05:00.000Z","type":"gemini","content":[{"text":"Got it."}]},` +
		`{"id":"g1","timestamp":"2026-04-25T08:02:00.000Z","type":"gemini","content":"masked"}]}}`
	res := parseBytes(t, chat(metaLine, userLine("u1", "a"), geminiLine("g1", "original"), set,
		userLine("u2", "b")), "session-x.jsonl")
	ps := only(t, res)
	want := []string{"u1", "g1", "checkpoint#1", "snap", "ack", "u2"}
	if got := keys(ps); !reflect.DeepEqual(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	if ps.Events[1].Text != "original" {
		t.Errorf("g1 text %q, want the original", ps.Events[1].Text)
	}
	if e := ps.Events[2]; e.Type != core.TypeCompaction || e.Native != "checkpoint" || e.Timestamp.IsZero() {
		t.Errorf("marker %+v", e)
	}
	if e := ps.Events[3]; e.Type != core.TypeSummary || e.Native != "state_snapshot" {
		t.Errorf("snapshot %+v", e)
	}
	// A checkpoint that leaves nothing out makes no marker.
	res = parseBytes(t, chat(metaLine, userLine("u1", "a"),
		`{"$set":{"messages":[{"id":"u1","type":"user","content":"a"}]}}`), "session-x.jsonl")
	if got := keys(only(t, res)); !reflect.DeepEqual(got, []string{"u1"}) {
		t.Errorf("keys %v, want [u1]", got)
	}
}

// TestWholeConversationLine reads a metadata line that carries the
// messages, as a legacy chat rewritten on one line is.
func TestWholeConversationLine(t *testing.T) {
	line := `{"sessionId":"s1","projectHash":"h","messages":[{"id":"u1","type":"user","content":"hi"},{"id":"g1","type":"gemini","content":"yo"}]}`
	ps := only(t, parseBytes(t, chat(line, userLine("u2", "b")), "session-x.jsonl"))
	if got := keys(ps); !reflect.DeepEqual(got, []string{"u1", "g1", "u2"}) || ps.Session.NativeID != "s1" {
		t.Errorf("keys %v native %q", got, ps.Session.NativeID)
	}
}

func TestSubagentChat(t *testing.T) {
	path := "/d/.gemini/tmp/p/chats/" + testSession + "/sub-1.jsonl"
	line := `{"sessionId":"sub-1","projectHash":"h","kind":"subagent","directories":["/w"]}`
	ps := only(t, parseBytes(t, chat(line, userLine("u1", "task")), path))
	s := ps.Session
	if !s.IsSubagent || s.ParentSessionID != core.NewSessionID(ProviderID, testSession) ||
		s.RootSessionID != s.ParentSessionID || s.Workspace != "/w" || s.NativeID != "sub-1" {
		t.Errorf("subagent session %+v", s)
	}
	main := only(t, parseBytes(t, chat(line), "/d/.gemini/tmp/p/chats/session-x.jsonl"))
	if main.Session.IsSubagent {
		t.Error("a chat directly under chats/ is not a subagent")
	}
}

func TestMetadataOnlyAndNoMetadata(t *testing.T) {
	ps := only(t, parseBytes(t, chat(metaLine), "session-x.jsonl"))
	if len(ps.Events) != 0 || ps.Session.NativeID != testSession {
		t.Errorf("metadata-only chat: %d events, native %q", len(ps.Events), ps.Session.NativeID)
	}
	ps = only(t, parseBytes(t, chat(userLine("u1", "a")), "/x/chats/session-2026-04-25T08-41-3494a697.jsonl"))
	if ps.Session.NativeID != "session-2026-04-25T08-41-3494a697" {
		t.Errorf("native %q, want the file name", ps.Session.NativeID)
	}
}
