package core

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"ctx/objects"
)

func TestIDsRoundTripAndAreDistinct(t *testing.T) {
	s := NewSessionID(ProviderClaude, "abc")
	if s == NewSessionID(ProviderCodex, "abc") {
		t.Fatal("the same native id of two providers gave one session id")
	}
	p, err := ParseSessionID(s.String())
	if err != nil || p != s {
		t.Fatalf("ParseSessionID(%s) = %v, %v", s, p, err)
	}
	e := NewEventID(s, "msg_1")
	if pe, err := ParseEventID(e.String()); err != nil || pe != e {
		t.Fatalf("ParseEventID = %v, %v", pe, err)
	}
	for _, bad := range []string{"", "ses_", e.String(), "ses_" + e.String()[4:35], "SES_" + s.String()[4:], "ses_" + "G" + s.String()[5:]} {
		if _, err := ParseSessionID(bad); !errors.Is(err, ErrInvalidID) {
			t.Errorf("ParseSessionID(%q) = %v, want ErrInvalidID", bad, err)
		}
	}
}

func TestScopeWeights(t *testing.T) {
	cases := []struct {
		scope  Scope
		typ    EventType
		weight float64
		ok     bool
	}{
		{ScopeAll, TypeMessage, 1.0, true},
		{ScopeAll, TypeSummary, 0.9, true},
		{ScopeAll, TypeToolCall, 0.8, true},
		{ScopeAll, TypeCommandStart, 0.8, true},
		{ScopeAll, TypeToolOutput, 0.6, true},
		{ScopeAll, TypeCommandFinish, 0.6, true},
		{ScopeAll, TypeOther, 0.8, true},
		{ScopeAll, EventType("future_type"), 0.8, true},
		{ScopeTranscript, TypeMessage, 1.0, true},
		{ScopeTranscript, TypeSummary, 0.9, true},
		{ScopeTranscript, TypeToolCall, 0, false},
		{ScopeCalls, TypeToolCall, 1.0, true},
		{ScopeCalls, TypeMessage, 0, false},
		{ScopeOutputs, TypeCommandOutput, 1.0, true},
		{ScopeOutputs, TypeCommandStart, 0, false},
	}
	for _, c := range cases {
		w, ok := c.scope.Weight(c.typ)
		if ok != c.ok || (ok && w != c.weight) {
			t.Errorf("%s/%s = %v,%v want %v,%v", c.scope, c.typ, w, ok, c.weight, c.ok)
		}
	}
	if _, err := ParseScope("everything"); !errors.Is(err, ErrInvalidScope) {
		t.Fatal("ParseScope accepted an unknown scope")
	}
}

func TestFinalizeLinksSubagentsAndDedupesKeys(t *testing.T) {
	ts := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	p := ParsedSession{Session: Session{Provider: ProviderClaude, NativeID: "root/agent-1"},
		ParentNativeID: "root", Events: []Event{{Key: "a", Timestamp: ts}, {Key: "a"}, {}}}
	p.Finalize()
	s := p.Session
	if !s.IsSubagent || s.ParentSessionID != NewSessionID(ProviderClaude, "root") || s.RootSessionID != s.ParentSessionID {
		t.Fatalf("subagent links wrong: %+v", s)
	}
	ids := map[EventID]bool{}
	for i, e := range p.Events {
		if e.Ordinal != i || e.SessionID != s.ID || ids[e.ID] {
			t.Fatalf("event %d: %+v", i, e)
		}
		ids[e.ID] = true
	}
	if s.Started.Location() != time.UTC || !s.Started.Equal(ts) || s.EventCount != 3 {
		t.Fatalf("times/count: %+v", s)
	}
}

type countingStore struct {
	objs map[objects.ID][]byte
	puts int
}

func (c *countingStore) Put(b []byte) (objects.ID, error) {
	id := objects.Hash(b)
	if _, ok := c.objs[id]; !ok {
		c.puts++
		c.objs[id] = append([]byte(nil), b...)
	}
	return id, nil
}

func (c *countingStore) Get(id objects.ID) ([]byte, error) { return c.objs[id], nil }

func session(n int) *ParsedSession {
	p := &ParsedSession{Session: Session{Provider: ProviderCodex, NativeID: "s"}}
	for i := 0; i < n; i++ {
		p.Events = append(p.Events, Event{Key: fmt.Sprint(i), Type: TypeMessage, Text: fmt.Sprint("event ", i)})
	}
	p.Finalize()
	return p
}

func TestAppendRewritesOnlyTailChunk(t *testing.T) {
	st := &countingStore{objs: map[objects.ID][]byte{}}
	first, err := WriteSession(st, session(3*ChunkSize+10), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.NewChunks) != 4 || len(first.Object.Chunks) != 4 {
		t.Fatalf("first write: %d new chunks", len(first.NewChunks))
	}
	st.puts = 0
	second, err := WriteSession(st, session(3*ChunkSize+20), first.Object.Chunks)
	if err != nil {
		t.Fatal(err)
	}
	if st.puts != 2 { // the tail chunk and the session object
		t.Fatalf("append wrote %d objects, want 2", st.puts)
	}
	if len(second.NewChunks) != 1 || second.NewChunks[0].Ref.First != 3*ChunkSize || len(second.Replaced) != 1 {
		t.Fatalf("append: new %d, replaced %d", len(second.NewChunks), len(second.Replaced))
	}
	if want := []bool{false, false, false, true}; !slices.Equal(second.Fresh, want) || !slices.Equal(first.Fresh, []bool{true, true, true, true}) {
		t.Fatalf("fresh flags: first %v, append %v, want %v", first.Fresh, second.Fresh, want)
	}
	st.puts = 0
	if _, err := WriteSession(st, session(3*ChunkSize+20), second.Object.Chunks); err != nil || st.puts != 0 {
		t.Fatalf("unchanged rewrite wrote %d objects (%v)", st.puts, err)
	}
	so, err := LoadSession(st, second.Entry.Object)
	if err != nil || so.Session.EventCount != 3*ChunkSize+20 {
		t.Fatalf("LoadSession: %v %v", so, err)
	}
	events, err := LoadEvents(st, so)
	if err != nil || len(events) != 3*ChunkSize+20 || events[200].Text != "event 200" {
		t.Fatalf("LoadEvents: %d %v", len(events), err)
	}
}
