package core

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"ctx/objects"
)

// The session object's and the indexed-chunks object's encoders give
// json.Marshal's bytes: no list, an empty one, and long ones with every
// width of ordinal, beside a session whose strings need escaping.
func TestListEncodersAreMarshal(t *testing.T) {
	sess := Session{ID: NewSessionID(ProviderClaude, "n"), Provider: ProviderClaude, NativeID: "n",
		Title: "<b>&\u2028 \"quoted\"\n", Workspace: "/w", Started: time.Unix(5, 7).UTC(), EventCount: 3}
	var long []ChunkRef
	for i := range 1000 {
		long = append(long, ChunkRef{ID: objects.Hash([]byte{byte(i), byte(i >> 8)}), First: i * i * i, Count: i % 65})
	}
	for _, chunks := range [][]ChunkRef{nil, {}, long[:1], long} {
		for _, s := range []Session{sess, {}} {
			so := SessionObject{Kind: KindSession, Session: s, Chunks: chunks}
			want, err := json.Marshal(&so)
			if err != nil {
				t.Fatal(err)
			}
			got, err := encodeSessionObject(&so)
			if err != nil || !bytes.Equal(got, want) || cap(got) != len(got) {
				t.Fatalf("%d chunks: session object\n got %.200s (cap %d, %v)\nwant %.200s", len(chunks), got, cap(got), err, want)
			}
		}
	}
	var listed []IndexedChunk
	for i, c := range long {
		id := sess.ID
		if i%7 == 0 {
			id = SessionID{}
		}
		listed = append(listed, IndexedChunk{Session: id, Chunk: c.ID})
	}
	for _, list := range [][]IndexedChunk{nil, listed[:1], listed} {
		st := &countingStore{objs: map[objects.ID][]byte{}}
		want, err := (&IndexedChunks{Chunks: list}).Put(st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := PutIndexedChunks(st, slices.Values(list))
		if err != nil || got != want {
			t.Fatalf("%d chunks: indexed chunks %.200s, want %.200s (%v)", len(list), st.objs[got], st.objs[want], err)
		}
	}
}
