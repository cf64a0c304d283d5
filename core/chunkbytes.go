package core

import (
	"bytes"
	"encoding/json"
	"fmt"

	"ctx/objects"
)

// The bytes of a chunk object as core writes them (encoding/json, fields in
// declaration order): the chunk's kind first, its events as the last field,
// each event an object whose first key is its id and whose event_type comes
// before any field that can nest an object. A key inside a string is
// escaped (\"), and no other object of an event has the id key, so each
// EventHead marks an event.
var (
	chunkHead = []byte(`{"kind":"` + KindChunk + `",`)
	eventsKey = []byte(`,"events":[`)
	// EventHead is how the JSON of an event in a chunk object starts.
	EventHead = []byte(`{"ctx_event_id":`)
	eventNext = []byte(`,{"ctx_event_id":`)
	typeKey   = []byte(`,"event_type":"`)
)

// ChunkEvents returns the JSON of each event of a chunk object's bytes as
// core writes them, or false when data does not have that shape (decode it
// whole then).
func ChunkEvents(data []byte) ([][]byte, bool) {
	if !bytes.HasPrefix(data, chunkHead) || !bytes.HasSuffix(data, []byte("]}")) {
		return nil, false
	}
	at := bytes.Index(data, eventsKey)
	if at < 0 {
		return nil, false
	}
	body := data[at+len(eventsKey) : len(data)-2]
	if len(body) == 0 {
		return [][]byte{}, true
	}
	if !bytes.HasPrefix(body, EventHead) {
		return nil, false
	}
	var spans [][]byte
	for {
		next := bytes.Index(body[1:], eventNext)
		if next < 0 {
			return append(spans, body), true
		}
		spans = append(spans, body[:next+1])
		body = body[next+2:]
	}
}

// EventTypeOf returns the event_type of an event's JSON as a chunk object
// holds it (see ChunkEvents) without decoding the rest, or false.
func EventTypeOf(event []byte) (EventType, bool) {
	at := bytes.Index(event, typeKey)
	if at < 0 {
		return "", false
	}
	v := event[at+len(typeKey):]
	end := bytes.IndexByte(v, '"')
	if end < 0 || bytes.IndexByte(v[:end], '\\') >= 0 {
		return "", false
	}
	return EventType(v[:end]), true
}

// LoadChunkEvents reads the events of a chunk object whose type want
// accepts, in order. Only those are decoded when the object has the shape
// core writes; any other chunk object is decoded whole and filtered.
func LoadChunkEvents(g objects.Getter, id objects.ID, want func(EventType) bool) ([]Event, error) {
	data, err := g.Get(id)
	if err != nil {
		return nil, err
	}
	spans, ok := ChunkEvents(data)
	if !ok {
		var c Chunk
		if err := json.Unmarshal(data, &c); err != nil || c.Kind != KindChunk {
			return nil, fmt.Errorf("core: object %s is not a %s", id, KindChunk)
		}
		out := c.Events[:0]
		for _, e := range c.Events {
			if want(e.Type) {
				out = append(out, e)
			}
		}
		return out, nil
	}
	var out []Event
	for i, s := range spans {
		if t, ok := EventTypeOf(s); ok && !want(t) {
			continue
		}
		var e Event
		if err := json.Unmarshal(s, &e); err != nil {
			return nil, fmt.Errorf("core: event %d of chunk %s: %w", i, id, err)
		}
		if want(e.Type) {
			out = append(out, e)
		}
	}
	return out, nil
}

// LoadChunkEventIDs reads the event ids of a chunk object, in order,
// without decoding the events when the object has the shape core writes.
func LoadChunkEventIDs(g objects.Getter, id objects.ID) ([]EventID, error) {
	data, err := g.Get(id)
	if err != nil {
		return nil, err
	}
	if spans, ok := ChunkEvents(data); ok {
		if ids, ok := spanIDs(spans); ok {
			return ids, nil
		}
	}
	var c Chunk
	if err := json.Unmarshal(data, &c); err != nil || c.Kind != KindChunk {
		return nil, fmt.Errorf("core: object %s is not a %s", id, KindChunk)
	}
	ids := make([]EventID, len(c.Events))
	for k := range c.Events {
		ids[k] = c.Events[k].ID
	}
	return ids, nil
}

// spanIDs reads the id each event's JSON starts with (see ChunkEvents),
// or false when one does not start with a quoted id.
func spanIDs(spans [][]byte) ([]EventID, bool) {
	ids := make([]EventID, len(spans))
	for k, s := range spans {
		v, ok := bytes.CutPrefix(s[len(EventHead):], []byte{'"'})
		end := bytes.IndexByte(v, '"')
		if !ok || end < 0 {
			return nil, false
		}
		id, err := ParseEventID(string(v[:end]))
		if err != nil {
			return nil, false
		}
		ids[k] = id
	}
	return ids, true
}
