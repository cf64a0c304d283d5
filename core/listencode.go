package core

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"

	"ctx/objects"
)

// A long session's chunk list (a reference every ChunkSize events: 47,000
// at 3,000,000 events) and the list of the chunks an index build covered
// are encoded into one buffer of their size, not by json.Marshal, which
// grows its buffer by doubling and returns a copy of it: three to four
// times the list's JSON while the object is written. The bytes are
// json.Marshal's, so the objects' ids are the same
// (TestListEncodersAreMarshal).

// encodeSessionObject returns the JSON of so, as json.Marshal encodes it.
func encodeSessionObject(so *SessionObject) ([]byte, error) {
	kind, err := json.Marshal(so.Kind)
	if err != nil {
		return nil, err
	}
	sess, err := json.Marshal(&so.Session)
	if err != nil {
		return nil, err
	}
	size := len(`{"kind":,"session":,"chunks":}`) + len(kind) + len(sess) + listSize(len(so.Chunks), so.Chunks == nil)
	var digits [20]byte
	for _, c := range so.Chunks {
		size += len(`{"id":"","first":,"count":}`) + 2*objects.IDSize +
			len(strconv.AppendInt(digits[:0], int64(c.First), 10)) + len(strconv.AppendInt(digits[:0], int64(c.Count), 10))
	}
	b := make([]byte, 0, size)
	b = append(append(b, `{"kind":`...), kind...)
	b = append(append(b, `,"session":`...), sess...)
	b = append(b, `,"chunks":`...)
	if so.Chunks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range so.Chunks {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":"`...)
			b = hex.AppendEncode(b, c.ID[:])
			b = strconv.AppendInt(append(b, `","first":`...), int64(c.First), 10)
			b = strconv.AppendInt(append(b, `,"count":`...), int64(c.Count), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// listSize is the JSON of a list of n entries but the entries: null, or
// its brackets and commas.
func listSize(n int, null bool) int {
	if null {
		return len("null")
	}
	return len("[]") + max(n-1, 0)
}

// PutIndexedChunks stores the indexed-chunks object of the chunks chunks
// yields, in order, as IndexedChunks.Put stores a list of them (none is a
// nil list), without holding them as a list: chunks is ranged over twice,
// to size the object and to write it into one buffer of that size.
func PutIndexedChunks(p objects.Putter, chunks iter.Seq[IndexedChunk]) (objects.ID, error) {
	n, size := 0, 0
	for c := range chunks {
		sid, _ := c.Session.MarshalText()
		size += len(`{"ctx_session_id":"","chunk":""}`) + len(sid) + 2*objects.IDSize
		n++
	}
	kind, _ := json.Marshal(KindIndexedChunks)
	b := make([]byte, 0, size+len(`{"kind":,"chunks":}`)+len(kind)+listSize(n, n == 0))
	b = append(append(b, `{"kind":`...), kind...)
	b = append(b, `,"chunks":`...)
	if n == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		i := 0
		for c := range chunks {
			if i > 0 {
				b = append(b, ',')
			}
			i++
			sid, _ := c.Session.MarshalText()
			b = append(append(b, `{"ctx_session_id":"`...), sid...)
			b = append(b, `","chunk":"`...)
			b = hex.AppendEncode(b, c.Chunk[:])
			b = append(b, `"}`...)
		}
		if i != n {
			return objects.ID{}, fmt.Errorf("core: encode %s: the list changed while it was written", KindIndexedChunks)
		}
		b = append(b, ']')
	}
	return p.Put(append(b, '}'))
}
