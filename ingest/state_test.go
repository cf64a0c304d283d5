package ingest

import (
	"testing"

	"ctx/core"
	"ctx/objects"
)

// TestLoadedStateIsACopy: the state kept for the next import of the same
// generation is a copy both ways, so what one import changes never leaks
// into the next one's start.
func TestLoadedStateIsACopy(t *testing.T) {
	ses := core.NewSessionID("claude-code", "kept")
	gen := objects.ID{1}
	st := &state{prevID: gen, tree: map[core.SessionID]core.TreeEntry{ses: {Session: ses, Events: 3}},
		cursors: map[string]core.FileCursor{"k": {Path: "/a"}}, tombs: map[core.EventID]uint64{},
		tombNew: map[core.EventID]uint64{}}
	keepLoaded(st)
	st.tree[ses] = core.TreeEntry{Session: ses, Events: 99} // the import goes on after keeping
	got := loadedState(gen, false)
	if got == nil || got.tree[ses].Events != 3 || got.cursors["k"].Path != "/a" {
		t.Fatalf("kept state %+v", got)
	}
	got.cursors["k2"] = core.FileCursor{Path: "/b"}
	got.setTomb(core.NewEventID(ses, "e"), 4)
	again := loadedState(gen, false)
	if len(again.cursors) != 1 || len(again.tombs) != 0 || len(again.tombNew) != 0 {
		t.Fatalf("a change to one copy reached the next: %+v", again)
	}
	if loadedState(objects.ID{2}, false) != nil {
		t.Fatal("the state of another generation was returned")
	}
}
