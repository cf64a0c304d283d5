package core

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"os"
	"slices"
	"sort"
)

// KeySet is a set of 16-byte keys (event ids, or digests of strings made
// by a KeyHasher): a small map of recent keys and sorted runs of older
// ones, merged as they grow (each key is moved O(log n) times). Runs in
// memory hold at most keySetMemory keys (2 MiB); past that they are
// merged into a run written to an unlinked temporary file, of which
// memory keeps a Bloom filter and the first key of each 4 KiB page. The
// filter has 10 bits a key (about 1% false positives) up to
// keySetFilterBytes, and no more: past 419,430 keys a run's filter stops
// growing and lets more keys through, each of which costs a read of one
// page (from the page cache: the file was written moments ago). So the
// set's memory grows by 0.06 bytes a key (the pages' first keys) instead
// of 16, and it stays exact whatever its size: a key is in the set only
// if a page holds it. Where no temporary file can be made, the runs stay
// in memory.
type KeySet struct {
	recent map[[16]byte]struct{}
	runs   [][][16]byte // sorted; each at least twice the next
	inRuns int          // keys in runs
	disk   []*diskRun   // each at least twice the next
	noDisk bool         // a temporary file could not be made
	page   []byte       // scratch page for lookups on disk
	n      int
	err    error   // the first failed read of a run on disk (see Err)
	under  *KeySet // the set this one is layered over (see Over)
}

// Over returns an empty set layered over s: it holds s's keys and those
// added to it, which s does not see. s must not change while it is in
// use; Close releases only the layer's own.
func (s *KeySet) Over() KeySet { return KeySet{under: s} }

// keySetRecent is how many keys wait in the map before they are sorted
// into a run.
const keySetRecent = 4096

// keySetMemory is how many keys the runs in memory hold before they are
// written to a file; a variable for the tests.
var keySetMemory = 1 << 17

// diskPage is the keys of a page of a run on disk.
const diskPage = 256

// keySetFilterBytes caps the Bloom filter of a run on disk (512 KiB: 10
// bits a key up to 419,430 keys; a run of 3,000,000 keys gets 1.4 bits a
// key, one probe, and lets about half of the keys not in it through). Runs
// are at least twice the size of the next, so a set of n keys holds
// log2(n / 419,430) + 1 capped filters at most. A variable for the tests.
var keySetFilterBytes = 512 << 10

// Len returns the number of keys.
func (s *KeySet) Len() int {
	if s.under != nil {
		return s.n + s.under.Len()
	}
	return s.n
}

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
	for _, d := range s.disk {
		ok, err := d.has(k, &s.page)
		if err != nil && s.err == nil {
			s.err = err
		}
		if ok || err != nil {
			return true
		}
	}
	return s.under != nil && s.under.Has(k)
}

// Err returns the first failure to read back a run the set wrote to disk:
// a failing disk. Has answered true for the keys it could not look up, so
// the work that asked must not be kept: the caller fails with Err.
func (s *KeySet) Err() error {
	if s.err == nil && s.under != nil {
		return s.under.Err()
	}
	return s.err
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

// Close releases the set's files and empties it.
func (s *KeySet) Close() {
	for _, d := range s.disk {
		_ = d.f.Close()
	}
	*s = KeySet{}
}

// spill sorts the recent keys into a run and merges the runs that are not
// at least twice as long as the one after them; once the runs hold
// keySetMemory keys they go to a file.
func (s *KeySet) spill() {
	run := make([][16]byte, 0, len(s.recent))
	for k := range s.recent {
		run = append(run, k)
	}
	slices.SortFunc(run, compareKey)
	clear(s.recent)
	s.inRuns += len(run)
	for len(s.runs) > 0 && len(s.runs[len(s.runs)-1]) <= 2*len(run) {
		last := s.runs[len(s.runs)-1]
		s.runs = s.runs[:len(s.runs)-1]
		run = mergeKeys(last, run)
	}
	s.runs = append(s.runs, run)
	if s.inRuns >= keySetMemory && !s.noDisk {
		s.toDisk()
	}
}

// toDisk writes the runs in memory as one run on disk and merges the runs
// on disk that are not at least twice as long as the one after them.
func (s *KeySet) toDisk() {
	all := s.runs[len(s.runs)-1]
	for i := len(s.runs) - 2; i >= 0; i-- {
		all = mergeKeys(s.runs[i], all)
	}
	d, err := writeDiskRun(len(all), func(yield func([16]byte) bool) {
		for _, k := range all {
			if !yield(k) {
				return
			}
		}
	})
	if err != nil {
		s.noDisk = true
		s.runs = [][][16]byte{all}
		return
	}
	s.runs, s.inRuns = nil, 0
	for len(s.disk) > 0 && s.disk[len(s.disk)-1].n <= 2*d.n {
		last := s.disk[len(s.disk)-1]
		merged, err := mergeDiskRuns(last, d)
		if err != nil {
			break // both stay, and are looked up apart
		}
		_ = last.f.Close()
		_ = d.f.Close()
		s.disk, d = s.disk[:len(s.disk)-1], merged
	}
	s.disk = append(s.disk, d)
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

// diskRun is a sorted run of keys in an unlinked temporary file.
type diskRun struct {
	f      *os.File
	n      int
	first  [][16]byte // the first key of each page of diskPage keys
	bloom  []uint64
	probes uint64 // bit positions of a key in bloom
}

// bloomBits is the Bloom filter's bits a key, bloomProbes its probes: a
// false positive rate of about 1%. A filter capped by keySetFilterBytes
// has fewer bits a key and takes fewer probes (bloomProbesFor).
const (
	bloomBits   = 10
	bloomProbes = 7
)

// probes returns the two hashes whose combinations are the key's bit
// positions (the keys are digests, but mixed again in case they are not).
func probes(k [16]byte) (uint64, uint64) {
	a, b := binary.LittleEndian.Uint64(k[:8]), binary.LittleEndian.Uint64(k[8:])
	return mix64(a ^ b>>1), mix64(b+0x9e3779b97f4a7c15) | 1
}

func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// bloomProbesFor returns the probes that give the fewest false positives
// for n keys in a filter of words 64-bit words: ln 2 times its bits a key,
// at least one and at most bloomProbes.
func bloomProbesFor(n, words int) uint64 {
	k := (words*64*7 + n*5) / (n * 10) // ln 2 ≈ 0.7, rounded
	return uint64(max(1, min(bloomProbes, k)))
}

func (d *diskRun) mayHave(k [16]byte) bool {
	m := uint64(len(d.bloom)) * 64
	h1, h2 := probes(k)
	for i := range d.probes {
		bit := (h1 + i*h2) % m
		if d.bloom[bit/64]&(1<<(bit%64)) == 0 {
			return false
		}
	}
	return true
}

func (d *diskRun) has(k [16]byte, page *[]byte) (bool, error) {
	if !d.mayHave(k) {
		return false, nil
	}
	p, ok := slices.BinarySearchFunc(d.first, k, compareKey)
	if ok {
		return true, nil
	}
	if p == 0 {
		return false, nil
	}
	p--
	n := min(diskPage, d.n-p*diskPage)
	if cap(*page) < diskPage*16 {
		*page = make([]byte, diskPage*16)
	}
	buf := (*page)[:n*16]
	if _, err := d.f.ReadAt(buf, int64(p)*diskPage*16); err != nil {
		// The file is this process's own, written moments ago: a failure
		// to read it back is a failing disk, and an answer either way would
		// keep a duplicate or drop a record.
		return false, fmt.Errorf("core: reading back a key set's temporary file: %w", err)
	}
	i := sort.Search(n, func(i int) bool { return bytes.Compare(buf[i*16:i*16+16], k[:]) >= 0 })
	return i < n && bytes.Equal(buf[i*16:i*16+16], k[:]), nil
}

// writeDiskRun writes n sorted keys to a new unlinked temporary file.
func writeDiskRun(n int, keys iter.Seq[[16]byte]) (*diskRun, error) {
	f, err := os.CreateTemp("", "ctx-keys-*")
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name()) // the file lives as long as it is open
	words := max(1, min((n*bloomBits+63)/64, keySetFilterBytes/8))
	d := &diskRun{f: f, bloom: make([]uint64, words), first: make([][16]byte, 0, (n+diskPage-1)/diskPage),
		probes: bloomProbesFor(max(n, 1), words)}
	m := uint64(words) * 64
	w := bufio.NewWriterSize(f, 64<<10)
	for k := range keys {
		if d.n%diskPage == 0 {
			d.first = append(d.first, k)
		}
		h1, h2 := probes(k)
		for i := range d.probes {
			bit := (h1 + i*h2) % m
			d.bloom[bit/64] |= 1 << (bit % 64)
		}
		if _, err := w.Write(k[:]); err != nil {
			break
		}
		d.n++
	}
	if err := w.Flush(); err != nil || d.n != n {
		_ = f.Close()
		return nil, fmt.Errorf("core: key set file: %w", cmpOr(err, io.ErrShortWrite))
	}
	return d, nil
}

func cmpOr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// mergeDiskRuns merges two runs on disk into a new one.
func mergeDiskRuns(a, b *diskRun) (*diskRun, error) {
	var rerr error
	read := func(d *diskRun) func() ([16]byte, bool) {
		r := bufio.NewReaderSize(io.NewSectionReader(d.f, 0, int64(d.n)*16), 64<<10)
		left := d.n
		return func() ([16]byte, bool) {
			var k [16]byte
			if left == 0 || rerr != nil {
				return k, false
			}
			if _, err := io.ReadFull(r, k[:]); err != nil {
				rerr = err
				return k, false
			}
			left--
			return k, true
		}
	}
	na, nb := read(a), read(b)
	d, err := writeDiskRun(a.n+b.n, func(yield func([16]byte) bool) {
		x, okx := na()
		y, oky := nb()
		for okx || oky {
			if !oky || okx && compareKey(x, y) < 0 {
				if !yield(x) {
					return
				}
				x, okx = na()
			} else {
				if !yield(y) {
					return
				}
				y, oky = nb()
			}
		}
	})
	if rerr != nil {
		if d != nil {
			_ = d.f.Close()
		}
		return nil, rerr
	}
	return d, err
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
