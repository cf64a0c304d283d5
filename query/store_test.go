package query

import (
	"reflect"
	"testing"

	"ctx/core"
)

// TestPickEvent: decoding one event out of a chunk's bytes gives exactly
// the event the whole chunk decodes to, for every event of the real
// fixtures, and nothing for an id the chunk does not hold.
func TestPickEvent(t *testing.T) {
	home := fixtureStore(t, t.TempDir())
	r := openReader(t, home)
	defer r.Close()
	tree, err := r.Tree()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range tree.Sessions {
		so, err := r.loadSession(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range so.Chunks {
			data, err := r.store.Get(ref.ID)
			if err != nil {
				t.Fatal(err)
			}
			c, err := core.LoadChunk(r.store, ref.ID)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.Events {
				got := pickEvent(data, c.Events[i].ID)
				if got == nil || !reflect.DeepEqual(*got, c.Events[i]) {
					t.Fatalf("event %s of chunk %s: picked %+v", c.Events[i].ID, ref.ID.Short(), got)
				}
				n++
			}
			if pickEvent(data, core.NewEventID(c.Session, "not in this chunk")) != nil {
				t.Fatal("picked an event the chunk does not hold")
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d events checked", n)
	}
}
