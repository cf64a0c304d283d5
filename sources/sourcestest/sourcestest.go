// Package sourcestest is the conformance suite every provider passes: run it
// from each parser's tests over every real fixture file of that provider.
package sourcestest

import (
	"testing"
	"time"

	"ctx/core"
)

// Run parses each file twice and checks the provider contract:
//   - Parse succeeds and returns finalized sessions of this provider;
//   - event ids are unique within the file and identical on a re-parse;
//   - ordinals are 0..n-1 in order and every event belongs to its session;
//   - timestamps are UTC; session start <= end when both are known;
//   - every event has a known role and a non-empty event type, unknown
//     record types are kept as "other" events (never dropped);
//   - subagent sessions name a parent and a root; primary ones are their
//     own root;
//   - problems carry a stable code and no file contents.
func Run(t *testing.T, p core.Provider, files []core.SourceFile) {
	t.Helper()
	if len(files) == 0 {
		t.Fatal("conformance: no files to check")
	}
	for _, f := range files {
		t.Run(f.Path, func(t *testing.T) {
			first, err := p.Parse(f)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			second, err := p.Parse(f)
			if err != nil {
				t.Fatalf("re-parse: %v", err)
			}
			checkResult(t, p.Name(), first)
			if len(first.Sessions) != len(second.Sessions) {
				t.Fatalf("re-parse gave %d sessions, first %d", len(second.Sessions), len(first.Sessions))
			}
			for i := range first.Sessions {
				a, b := first.Sessions[i], second.Sessions[i]
				if a.Session.ID != b.Session.ID || len(a.Events) != len(b.Events) {
					t.Fatalf("session %d differs on re-parse", i)
				}
				for k := range a.Events {
					if a.Events[k].ID != b.Events[k].ID {
						t.Fatalf("event %d of session %d changed id on re-parse", k, i)
					}
				}
			}
		})
	}
}

var roles = map[core.Role]bool{core.RoleUser: true, core.RoleAssistant: true, core.RoleSystem: true, core.RoleTool: true}

func checkResult(t *testing.T, provider string, res core.ParseResult) {
	t.Helper()
	ids := map[core.EventID]bool{}
	for _, ps := range res.Sessions {
		s := ps.Session
		if s.Provider != provider || s.ID.IsZero() || s.ID != core.NewSessionID(provider, s.NativeID) {
			t.Fatalf("session %q not finalized for provider %s", s.NativeID, provider)
		}
		if s.RootSessionID.IsZero() || (s.IsSubagent && s.ParentSessionID.IsZero()) || (!s.IsSubagent && s.RootSessionID != s.ID) {
			t.Fatalf("session %s: root/parent links inconsistent (subagent=%v)", s.ID, s.IsSubagent)
		}
		if !s.Started.IsZero() && (s.Started.Location() != time.UTC || s.Ended.Before(s.Started)) {
			t.Fatalf("session %s: start/end not UTC or reversed", s.ID)
		}
		if s.EventCount != len(ps.Events) {
			t.Fatalf("session %s: event_count %d, events %d", s.ID, s.EventCount, len(ps.Events))
		}
		for i, e := range ps.Events {
			checkEvent(t, s, i, &e, ids)
		}
	}
	for _, p := range res.Problems {
		if p.Code == "" {
			t.Fatalf("problem without a code: %+v", p)
		}
	}
}

func checkEvent(t *testing.T, s core.Session, i int, e *core.Event, ids map[core.EventID]bool) {
	t.Helper()
	if e.Ordinal != i || e.SessionID != s.ID {
		t.Fatalf("session %s event %d: ordinal %d / session %s", s.ID, i, e.Ordinal, e.SessionID)
	}
	if ids[e.ID] {
		t.Fatalf("session %s event %d: duplicate event id %s", s.ID, i, e.ID)
	}
	ids[e.ID] = true
	if !roles[e.Role] || e.Type == "" {
		t.Fatalf("session %s event %d: role %q type %q", s.ID, i, e.Role, e.Type)
	}
	if !e.Timestamp.IsZero() && e.Timestamp.Location() != time.UTC {
		t.Fatalf("session %s event %d: timestamp not UTC", s.ID, i)
	}
	for _, f := range e.Files {
		if f.Path == "" || f.Op == "" {
			t.Fatalf("session %s event %d: file touch without path or op", s.ID, i)
		}
	}
}
