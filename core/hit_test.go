package core

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// t0 is the base time of test hits.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// gh is a compact hit for grouping tests: root group, subagent flag, score;
// a name ending in ~ is a partial match (some words only).
type gh struct {
	name  string
	root  string
	sub   bool
	score float64
	age   time.Duration // older hits have a larger age
}

func hitsOf(spec []gh) []Hit {
	out := make([]Hit, len(spec))
	for i, s := range spec {
		root := NewSessionID("p", s.root)
		sess := root
		if s.sub {
			sess = NewSessionID("p", s.root+"/sub")
		}
		out[i] = Hit{EventID: NewEventID(sess, s.name), SessionID: sess, RootSessionID: root,
			IsSubagent: s.sub, Score: s.score, Timestamp: t0.Add(-s.age), Partial: strings.HasSuffix(s.name, "~")}
	}
	return out
}

func TestGroupHits(t *testing.T) {
	tests := []struct {
		name  string
		hits  []gh
		limit int
		want  []string
	}{
		{"one per group before repeats", []gh{
			{"a1", "A", false, 10, 0}, {"a2", "A", false, 9, 0}, {"a3", "A", false, 8, 0},
			{"b1", "B", false, 7, 0}, {"c1", "C", false, 6, 0}, {"b2", "B", false, 5, 0},
		}, 10, []string{"a1", "b1", "c1", "a2", "a3", "b2"}},
		{"a strong repeat comes before a weak lead", []gh{
			{"a1", "A", false, 10, 0}, {"a2", "A", false, 9, 0}, {"b1", "B", false, 4.5, 0},
			{"c1", "C", false, 4.4, 0},
		}, 10, []string{"a1", "b1", "a2", "c1"}},
		{"a repeat waits for a lead half as strong", []gh{
			{"a1", "A", false, 10, 0}, {"a2", "A", false, 8, 0}, {"b1", "B", false, 4, 0},
		}, 10, []string{"a1", "b1", "a2"}},
		{"every word before some words", []gh{
			{"a1", "A", false, 10, 0}, {"b1~", "B", false, 9.5, 0}, {"a2", "A", false, 2, 0},
		}, 10, []string{"a1", "a2", "b1~"}},
		{"limit cuts round robin", []gh{
			{"a1", "A", false, 10, 0}, {"a2", "A", false, 9, 0}, {"b1", "B", false, 7, 0},
		}, 2, []string{"a1", "b1"}},
		{"primary preferred when close", []gh{
			{"sub", "A", true, 10, 0}, {"prim", "A", false, 9, 0}, {"b1", "B", false, 8, 0},
		}, 10, []string{"prim", "b1", "sub"}},
		{"primary at exactly the factor", []gh{
			{"sub", "A", true, 10, 0}, {"prim", "A", false, 10 * PrimaryPreference, 0},
		}, 10, []string{"prim", "sub"}},
		{"stronger subagent wins", []gh{
			{"sub", "A", true, 10, 0}, {"prim", "A", false, 8.9, 0}, {"b1", "B", false, 8, 0},
		}, 10, []string{"sub", "b1", "prim"}},
		{"best primary is the one promoted", []gh{
			{"sub1", "A", true, 10, 0}, {"sub2", "A", true, 9.8, 0}, {"p1", "A", false, 9.5, 0},
			{"p2", "A", false, 9.4, 0},
		}, 10, []string{"p1", "sub1", "sub2", "p2"}},
		{"groups rank by best evidence", []gh{
			{"sub", "A", true, 10, 0}, {"b1", "B", false, 9.8, 0}, {"prim", "A", false, 9.5, 0},
		}, 10, []string{"prim", "b1", "sub"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := hitsOf(tt.hits)
			SortHits(hits)
			got := GroupHits(hits, tt.limit)
			byID := map[EventID]string{}
			for i, h := range hitsOf(tt.hits) {
				byID[h.EventID] = tt.hits[i].name
			}
			var names []string
			for _, h := range got {
				names = append(names, byID[h.EventID])
			}
			if !reflect.DeepEqual(names, tt.want) {
				t.Fatalf("group = %v, want %v", names, tt.want)
			}
		})
	}
}

func TestSortHitsTieBreaks(t *testing.T) {
	hits := hitsOf([]gh{
		{"old", "A", false, 5, time.Hour}, {"new", "B", false, 5, 0}, {"top", "C", false, 6, 2 * time.Hour},
	})
	twin := hits[1]
	twin.EventID = NewEventID(twin.SessionID, "twin")
	hits = append(hits, twin)
	for range 3 {
		shuffled := []Hit{hits[3], hits[0], hits[2], hits[1]}
		SortHits(shuffled)
		if shuffled[0].Score != 6 || shuffled[3].Timestamp != t0.Add(-time.Hour) {
			t.Fatalf("order %v", describe(shuffled))
		}
		a, b := shuffled[1].EventID, shuffled[2].EventID
		if string(a[:]) > string(b[:]) {
			t.Fatalf("equal score and time must order by event id: %v", describe(shuffled))
		}
	}
}

func describe(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%s/%.3f", h.EventID.String()[:12], h.Score)
	}
	return out
}
