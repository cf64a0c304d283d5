package core

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// A KeySet holds every key added, across spills into sorted runs, and
// no other.
func TestKeySet(t *testing.T) {
	var s KeySet
	h := NewKeyHasher()
	const n = 3*keySetRecent + 123
	for i := range n {
		if !s.Add(h.Key("k", fmt.Sprint(i))) {
			t.Fatalf("key %d added twice", i)
		}
		if i%1000 == 0 && s.Add(h.Key("k", fmt.Sprint(i/2))) {
			t.Fatalf("key %d was not kept", i/2)
		}
	}
	if s.Len() != n || len(s.runs) == 0 {
		t.Fatalf("len %d, %d runs", s.Len(), len(s.runs))
	}
	for i := range n {
		if !s.Has(h.Key("k", fmt.Sprint(i))) {
			t.Fatalf("key %d lost", i)
		}
	}
	for range 1000 {
		if s.Has(h.Key("k", fmt.Sprint(n+rand.IntN(1<<30)))) {
			t.Fatal("a key never added is in the set")
		}
	}
	if h.Key("a", "b") == h.Key("ab") || h.Key("a", "b") != h.Key("a", "b") {
		t.Fatal("parts are not told apart, or a digest is not stable")
	}
}

// A digest counted before its session is known equals Summarize's, the
// session's model first.
func TestLaterDigestEqualsSummarize(t *testing.T) {
	s := &Session{NativeID: "n", Model: "m3", Title: "agent title", Source: SourceRef{Root: "r", Group: "g"}}
	var evs []Event
	for i := range 12 {
		evs = append(evs, Event{Type: TypeMessage, Role: RoleUser, Text: fmt.Sprintf("prompt %d", i),
			Model: fmt.Sprintf("m%d", i), Timestamp: time.Unix(int64(i), 0),
			Files: []FileTouch{{Path: fmt.Sprintf("f%d", i%3), Op: OpEdit}}, Tokens: &Tokens{Input: 1}})
	}
	for _, title := range []string{"agent title", ""} {
		s.Title = title
		b := NewLaterDigestBuilder()
		for i := range evs {
			b.Add(&evs[i])
		}
		got, want := b.DigestFor(s), Summarize(s, evs)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("title %q:\n got %+v\nwant %+v", title, got, want)
		}
	}
}

// Past keySetMemory keys the runs go to files, merged as they grow, and
// the set still holds every key added and no other.
func TestKeySetOnDisk(t *testing.T) {
	smallMemoryRuns(t)
	var s KeySet
	defer s.Close()
	h := NewKeyHasher()
	const n = 37*keySetRecent + 77
	for i := range n {
		if !s.Add(h.Key("k", fmt.Sprint(i))) {
			t.Fatalf("key %d added twice", i)
		}
		if i%97 == 0 && s.Add(h.Key("k", fmt.Sprint(rand.IntN(i+1)))) {
			t.Fatalf("a key below %d was not kept", i)
		}
	}
	if s.Len() != n || len(s.disk) < 2 || s.noDisk {
		t.Fatalf("len %d, %d runs on disk (no disk: %v)", s.Len(), len(s.disk), s.noDisk)
	}
	for i := 1; i < len(s.disk); i++ {
		if s.disk[i-1].n <= 2*s.disk[i].n {
			t.Fatalf("disk runs %d and %d not merged: %d and %d keys", i-1, i, s.disk[i-1].n, s.disk[i].n)
		}
	}
	for i := range n {
		if !s.Has(h.Key("k", fmt.Sprint(i))) {
			t.Fatalf("key %d lost", i)
		}
	}
	for range 20000 {
		if s.Has(h.Key("k", fmt.Sprint(n+rand.IntN(1<<30)))) {
			t.Fatal("a key never added is in the set")
		}
	}
	// The first key of a page, a key below every key and one above.
	if !s.Has(s.disk[0].first[1]) || s.Has([16]byte{}) {
		t.Fatal("edge keys")
	}
	var top [16]byte
	for i := range top {
		top[i] = 0xff
	}
	if s.Has(top) {
		t.Fatal("a key above every key is in the set")
	}
}

// TestKeySetCappedFilterStaysExact: runs on disk whose filters are
// capped far below their keys let most lookups through to a page, and the
// set is still exact: a duplicate of the first key, many runs back, is
// refused; every key added is found; no key never added is.
func TestKeySetCappedFilterStaysExact(t *testing.T) {
	smallMemoryRuns(t)
	old := keySetFilterBytes
	keySetFilterBytes = 64 // 512 bits for runs of 8,192 keys and more
	t.Cleanup(func() { keySetFilterBytes = old })
	var s KeySet
	defer s.Close()
	h := NewKeyHasher()
	const n = 40 * keySetRecent
	for i := range n {
		if !s.Add(h.Key("k", fmt.Sprint(i))) {
			t.Fatalf("key %d added twice", i)
		}
	}
	if len(s.disk) == 0 {
		t.Fatal("no run went to disk")
	}
	for _, d := range s.disk {
		if len(d.bloom)*8 > keySetFilterBytes || d.probes != 1 {
			t.Fatalf("a run of %d keys has a filter of %d bytes and %d probes", d.n, len(d.bloom)*8, d.probes)
		}
	}
	if s.Add(h.Key("k", "0")) {
		t.Fatal("the first key, far back on disk, was added again")
	}
	for i := range n {
		if !s.Has(h.Key("k", fmt.Sprint(i))) {
			t.Fatalf("key %d lost", i)
		}
	}
	for range 20000 {
		if s.Has(h.Key("k", fmt.Sprint(n+rand.IntN(1<<30)))) {
			t.Fatal("a key never added is in the set")
		}
	}
	if s.Len() != n || s.Err() != nil {
		t.Fatalf("len %d, err %v", s.Len(), s.Err())
	}
}

// TestKeySetReadFailureIsAnError: when a run on disk cannot be read back
// (a failing disk; here its file closed under the set), a lookup that
// needed it says "present" and the set's Err says why, instead of the
// process dying.
func TestKeySetReadFailureIsAnError(t *testing.T) {
	smallMemoryRuns(t)
	var s KeySet
	defer s.Close()
	h := NewKeyHasher()
	const n = 4 * keySetRecent
	for i := range n {
		s.Add(h.Key("k", fmt.Sprint(i)))
	}
	if len(s.disk) == 0 || s.Err() != nil {
		t.Fatalf("%d runs on disk, err %v", len(s.disk), s.Err())
	}
	for _, d := range s.disk {
		_ = d.f.Close()
	}
	for i := range n { // some key of a disk run is not a page's first: its page must be read
		s.Has(h.Key("k", fmt.Sprint(i)))
	}
	if s.Err() == nil {
		t.Fatal("no error after the set's files became unreadable")
	}
}

// smallMemoryRuns makes key sets write their runs to disk past two
// spills, for the test.
func smallMemoryRuns(t *testing.T) {
	old := keySetMemory
	keySetMemory = keySetRecent * 2
	t.Cleanup(func() { keySetMemory = old })
}
