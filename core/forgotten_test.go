package core

import (
	"testing"
	"time"

	"ctx/objects"
)

func forgottenID(b byte) SessionID { return SessionID{b} }

// TestForgottenMerge: per session the later change wins, a forget wins a
// tie, and entries one side lacks are taken in (the sync rule).
func TestForgottenMerge(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a := ForgottenSet{
		forgottenID(1): {Session: forgottenID(1), At: t0, Generation: 3},
		forgottenID(2): {Session: forgottenID(2), At: t0.Add(time.Hour), Undone: true, Generation: 5},
		forgottenID(3): {Session: forgottenID(3), At: t0, Undone: true},
	}
	b := ForgottenSet{
		forgottenID(1): {Session: forgottenID(1), At: t0.Add(time.Minute), Undone: true},
		forgottenID(2): {Session: forgottenID(2), At: t0},
		forgottenID(3): {Session: forgottenID(3), At: t0},
		forgottenID(4): {Session: forgottenID(4), At: t0, Generation: 9, Purged: 11},
	}
	a.Merge(b)
	for id, want := range map[byte]bool{1: false, 2: false, 3: true, 4: true} {
		if got := a.Has(forgottenID(id)); got != want {
			t.Errorf("session %d forgotten = %v, want %v", id, got, want)
		}
	}
	if got := a.Since(); got != 11 {
		t.Fatalf("Since = %d, want 11 (the purge of the live entry)", got)
	}
	if live := a.Live(); len(live) != 2 || live[0].Session != forgottenID(3) {
		t.Fatalf("live = %+v", live)
	}
}

// TestForgottenRoundTrip: the stored set is the set, sorted; an empty set
// stores nothing.
func TestForgottenRoundTrip(t *testing.T) {
	s, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if id, err := (ForgottenSet{}).Put(s); err != nil || id != nil {
		t.Fatalf("empty set stored as %v, %v", id, err)
	}
	set := ForgottenSet{forgottenID(2): {Session: forgottenID(2), Reason: "session", Events: 7},
		forgottenID(1): {Session: forgottenID(1), Reason: "subagent", Root: forgottenID(2)}}
	id, err := set.Put(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadForgotten(s, id)
	if err != nil || len(got) != 2 || got[forgottenID(2)].Events != 7 || got[forgottenID(1)].Root != forgottenID(2) {
		t.Fatalf("loaded %+v, %v", got, err)
	}
	again, _ := set.Put(s)
	if *again != *id {
		t.Fatal("the same set must be the same object")
	}
}
