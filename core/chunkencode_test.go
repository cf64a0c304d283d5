package core

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestEncodeChunkIsMarshal checks that a chunk with long texts is encoded
// byte for byte as json.Marshal encodes it: runes of every width, invalid
// bytes, characters encoding/json escapes, and the text key inside other
// fields, with piece bounds falling inside sequences at every offset.
func TestEncodeChunkIsMarshal(t *testing.T) {
	mix := "a\"b\\c\n\t\x01<&>é€𝄞\u2028\u2029\xff\xe2\x82 end"
	var texts []string
	for shift := range 8 {
		texts = append(texts, strings.Repeat("x", shift)+strings.Repeat(mix, longText/len(mix)+9))
	}
	texts = append(texts, strings.Repeat("\x80", longText+3), strings.Repeat("€", longText/3+1), "")
	sid := NewSessionID("claude", "s")
	var evs []Event
	for i, text := range texts {
		code := 3
		evs = append(evs, Event{
			ID: NewEventID(sid, "k"+string(rune('a'+i))), SessionID: sid, Ordinal: i,
			Timestamp: time.Date(2026, 3, 1, 0, 0, i, 0, time.UTC), Role: RoleUser,
			Type: EventType(`message,"text":""`), Text: text, Tool: `{"text":""}`, ExitCode: &code,
			Files: []FileTouch{{Path: `"text":""`}},
		})
	}
	for _, ch := range []Chunk{
		{Kind: KindChunk, Session: sid, First: 7, Events: evs},
		{Kind: KindChunk, Session: sid, First: 0, Events: evs[8:9]},
		{Kind: KindChunk, Session: sid, First: 0, Events: evs[10:]},
	} {
		want, err := json.Marshal(&ch)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeChunk(&ch)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Fatalf("%d events: differs at byte %d of %d/%d: %.40q against %.40q", len(ch.Events), i, len(got), len(want), got[i:], want[i:])
		}
	}
}
