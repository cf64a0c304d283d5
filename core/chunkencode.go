package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// A chunk holding a long text (a pasted log, a huge tool output) is
// encoded event by event into one buffer of about its size, each long text
// escaped a piece at a time: json.Marshal would hold the chunk's JSON
// twice beside the text (its buffer, grown by doubling, and the copy it
// returns). The bytes are json.Marshal's, so the chunk's id is the same.
const (
	longText  = 1 << 20  // a text this long is written in pieces
	textPiece = 64 << 10 // bytes of text escaped at a time
)

// textKey is how an event's text appears in its JSON when empty. The
// fields before it are strings and numbers, whose quotes are escaped, so
// its first occurrence is the text's.
var textKey = []byte(`,"text":""`)

// encodeChunk returns the JSON of ch, as json.Marshal encodes it.
func encodeChunk(ch *Chunk) ([]byte, error) {
	size, long := 0, false
	for i := range ch.Events {
		size += len(ch.Events[i].Text)
		long = long || len(ch.Events[i].Text) >= longText
	}
	if !long {
		return json.Marshal(ch)
	}
	head, err := json.Marshal(&Chunk{Kind: ch.Kind, Session: ch.Session, First: ch.First, Events: []Event{}})
	if err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(head)+size+size/32+512*len(ch.Events)))
	buf.Write(head[:len(head)-len("]}")])
	for i := range ch.Events {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := encodeEvent(buf, &ch.Events[i]); err != nil {
			return nil, err
		}
	}
	buf.WriteString("]}")
	return buf.Bytes(), nil
}

// encodeEvent appends the JSON of e to buf, a long text in pieces.
func encodeEvent(buf *bytes.Buffer, e *Event) error {
	if len(e.Text) < longText {
		b, err := json.Marshal(e)
		buf.Write(b)
		return err
	}
	bare := *e
	bare.Text = ""
	b, err := json.Marshal(&bare)
	if err != nil {
		return err
	}
	at := bytes.Index(b, textKey)
	if at < 0 {
		return fmt.Errorf("core: event %s: no text in its JSON", e.ID)
	}
	at += len(textKey) - 1 // the text's closing quote
	buf.Write(b[:at])
	for s := e.Text; len(s) > 0; {
		n := pieceEnd(s)
		q, err := json.Marshal(s[:n])
		if err != nil {
			return err
		}
		buf.Write(q[1 : len(q)-1])
		s = s[n:]
	}
	buf.Write(b[at:])
	return nil
}

// pieceEnd returns where the next piece of s ends: at most textPiece bytes,
// never inside a valid UTF-8 sequence, so that each piece escapes as it
// does within the whole text (an invalid byte becomes U+FFFD either way).
func pieceEnd(s string) int {
	if len(s) <= textPiece {
		return len(s)
	}
	n := textPiece
	for back := 0; back < utf8.UTFMax-1 && !utf8.RuneStart(s[n]); back++ {
		n--
	}
	if !utf8.RuneStart(s[n]) {
		return textPiece // no rune that long: no valid sequence crosses it
	}
	return n
}
