package core

import (
	"bytes"
	"hash/maphash"
	"slices"
)

// KeySet is a set of 16-byte keys (event ids, or digests of strings made
// by a KeyHasher) held in 16 bytes a key: a small map of recent keys and
// sorted runs of older ones, merged as they grow (each key is moved
// O(log n) times). A map of the same keys takes about three times as much,
// and a map of the strings themselves more still.
type KeySet struct {
	recent map[[16]byte]struct{}
	runs   [][][16]byte // sorted; each at least twice the next
	n      int
}

// keySetRecent is how many keys wait in the map before they are sorted
// into a run.
const keySetRecent = 4096

// Len returns the number of keys.
func (s *KeySet) Len() int { return s.n }

// Has reports whether k is in the set.
func (s *KeySet) Has(k [16]byte) bool {
	if _, ok := s.recent[k]; ok {
		return true
	}
	for _, r := range s.runs {
		if _, ok := slices.BinarySearchFunc(r, k, compareKey); ok {
			return true
		}
	}
	return false
}

// Add adds k and reports whether it was new.
func (s *KeySet) Add(k [16]byte) bool {
	if s.Has(k) {
		return false
	}
	if s.recent == nil {
		s.recent = make(map[[16]byte]struct{})
	}
	s.recent[k] = struct{}{}
	s.n++
	if len(s.recent) >= keySetRecent {
		s.spill()
	}
	return true
}

// spill sorts the recent keys into a run and merges the runs that are not
// at least twice as long as the one after them.
func (s *KeySet) spill() {
	run := make([][16]byte, 0, len(s.recent))
	for k := range s.recent {
		run = append(run, k)
	}
	slices.SortFunc(run, compareKey)
	clear(s.recent)
	for len(s.runs) > 0 && len(s.runs[len(s.runs)-1]) <= 2*len(run) {
		last := s.runs[len(s.runs)-1]
		s.runs = s.runs[:len(s.runs)-1]
		run = mergeKeys(last, run)
	}
	s.runs = append(s.runs, run)
}

func mergeKeys(a, b [][16]byte) [][16]byte {
	out := make([][16]byte, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if compareKey(a[0], b[0]) < 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

func compareKey(a, b [16]byte) int { return bytes.Compare(a[:], b[:]) }

// KeyHasher digests strings into 16-byte keys for a KeySet, with seeds
// drawn for this process (the digests are never stored). Two distinct
// strings share a digest with a chance of about n²/2¹²⁹ among n strings:
// no more likely than two events sharing an EventID, which ctx already
// takes as never.
type KeyHasher struct{ a, b maphash.Seed }

// NewKeyHasher returns a hasher with fresh seeds.
func NewKeyHasher() KeyHasher { return KeyHasher{maphash.MakeSeed(), maphash.MakeSeed()} }

// Key digests the parts, each told apart from the next.
func (h KeyHasher) Key(parts ...string) [16]byte {
	var x, y maphash.Hash
	x.SetSeed(h.a)
	y.SetSeed(h.b)
	for _, p := range parts {
		x.WriteString(p)
		x.WriteByte(0)
		y.WriteString(p)
		y.WriteByte(0)
	}
	var k [16]byte
	putUint64(k[:8], x.Sum64())
	putUint64(k[8:], y.Sum64())
	return k
}

func putUint64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}
