package core

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"ctx/objects"
)

// TestLoadChunkEventsDecodesOnlyWanted checks, on chunks written by
// WriteSession into a real store, that the events a filter keeps are those
// of the whole decode, in order, that each event's type is read from its
// bytes, and that a chunk of another shape is decoded whole and filtered;
// and that the ids read from the bytes are the events' ids.
func TestLoadChunkEventsDecodesOnlyWanted(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	types := []EventType{TypeMessage, TypeToolCall, TypeToolOutput, TypeSummary, TypeCompaction, TypeCommandStart}
	p := &ParsedSession{Session: Session{Provider: ProviderCodex, NativeID: "s"}}
	for i := range 2*ChunkSize + 5 {
		e := Event{Key: fmt.Sprint(i), Type: types[i%len(types)], Role: RoleAssistant,
			Text: fmt.Sprintf(`text %d with ,"event_type":"message" and {"ctx_event_id":"x"}`, i)}
		if e.Type == TypeToolCall {
			e.Files = []FileTouch{{Path: "/r/a.go", Op: "edit", NewText: `{"event_type":"message"}`}}
		}
		p.Events = append(p.Events, e)
	}
	p.Finalize()
	w, err := WriteSession(st, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	summary := func(t EventType) bool { return t.Class() == ClassSummary }
	kept := 0
	for _, ref := range w.Object.Chunks {
		data, err := st.Get(ref.ID)
		if err != nil {
			t.Fatal(err)
		}
		spans, ok := ChunkEvents(data)
		if !ok {
			t.Fatal("a chunk core wrote is not split")
		}
		whole, err := LoadChunk(st, ref.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(spans) != len(whole.Events) {
			t.Fatalf("%d spans for %d events", len(spans), len(whole.Events))
		}
		var want []Event
		for i, e := range whole.Events {
			if typ, ok := EventTypeOf(spans[i]); !ok || typ != e.Type {
				t.Fatalf("event %d: type %q (%v) from its bytes, want %q", i, typ, ok, e.Type)
			}
			if summary(e.Type) {
				want = append(want, e)
			}
		}
		got, err := LoadChunkEvents(st, ref.ID, summary)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("kept %d events (%v), want %d", len(got), err, len(want))
		}
		kept += len(got)
		var ids []EventID
		for _, e := range whole.Events {
			ids = append(ids, e.ID)
		}
		if got, err := LoadChunkEventIDs(st, ref.ID); err != nil || !reflect.DeepEqual(got, ids) {
			t.Fatalf("ids %v (%v), want %v", got, err, ids)
		}

		// The same chunk with its fields in another order.
		other, _ := json.Marshal(map[string]any{"events": whole.Events, "kind": KindChunk})
		id, err := st.Put(other)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ChunkEvents(other); ok {
			t.Fatal("a chunk of another shape was split")
		}
		if got, err := LoadChunkEvents(st, id, summary); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("other shape: kept %d events (%v), want %d", len(got), err, len(want))
		}
		if got, err := LoadChunkEventIDs(st, id); err != nil || !reflect.DeepEqual(got, ids) {
			t.Fatalf("other shape: ids %v (%v), want %v", got, err, ids)
		}
	}
	if kept < ChunkSize/2 {
		t.Fatalf("only %d events kept", kept)
	}
}
