package objects

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func TestPutGetRoundTrip(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("hello ctx "), 100)
	id, err := s.Put(data)
	if err != nil {
		t.Fatal(err)
	}
	if id != Hash(data) {
		t.Fatalf("id %s is not the hash of the data", id)
	}
	got, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("round trip changed the bytes")
	}
	fi, err := os.Stat(s.path(id))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("object mode %v, want 0600", fi.Mode().Perm())
	}
	if fi.Size() >= int64(len(data)) {
		t.Fatalf("object not compressed: %d >= %d", fi.Size(), len(data))
	}
}

func TestPutExistingWritesNothing(t *testing.T) {
	s, _ := Open(t.TempDir())
	b := s.NewBatch()
	if _, err := b.Put([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b2 := s.NewBatch()
	if _, err := b2.Put([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if b2.Len() != 0 {
		t.Fatalf("re-putting an existing object queued %d writes", b2.Len())
	}
}

func TestBatchInvisibleUntilCommit(t *testing.T) {
	s, _ := Open(t.TempDir())
	b := s.NewBatch()
	id, _ := b.Put([]byte("pending"))
	if s.Has(id) {
		t.Fatal("object visible before commit")
	}
	b.Abort()
	if s.Has(id) {
		t.Fatal("aborted object visible")
	}
	entries, _ := os.ReadDir(filepath.Join(s.Dir(), "tmp"))
	if len(entries) != 0 {
		t.Fatalf("abort left %d temp files", len(entries))
	}
}

// A batch committed as it goes: each commit makes its pending objects
// visible and readable, Len counts them all, Pending only those left, and
// Abort drops only what was not committed.
func TestBatchCommittedTwice(t *testing.T) {
	s, _ := Open(t.TempDir())
	b := s.NewBatch()
	first, _ := b.Put([]byte("first"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	second, _ := b.Put([]byte("second"))
	if _, err := b.Put([]byte("first")); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 2 || b.Pending() != 1 {
		t.Fatalf("len %d, pending %d; want 2 and 1", b.Len(), b.Pending())
	}
	for _, id := range []ID{first, second} {
		if _, err := b.Get(id); err != nil {
			t.Fatalf("get %s through the batch: %v", id.Short(), err)
		}
	}
	b.Abort()
	if !s.Has(first) || s.Has(second) {
		t.Fatalf("after abort: committed present %v, pending present %v", s.Has(first), s.Has(second))
	}
	if data, err := s.Get(first); err != nil || string(data) != "first" {
		t.Fatalf("committed object reads %q, %v", data, err)
	}
}

func TestFlippedByteIsCorrupt(t *testing.T) {
	s, _ := Open(t.TempDir())
	id, _ := s.Put(bytes.Repeat([]byte("abcdefgh"), 64))
	p := s.path(id)
	raw, _ := os.ReadFile(p)
	for i := range raw {
		flipped := append([]byte(nil), raw...)
		flipped[i] ^= 0x01
		if err := os.WriteFile(p, flipped, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := s.Get(id)
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.ID != id || !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: got %v, want CorruptError naming %s", i, err, id)
		}
	}
}

// TestCutObjectIsCorrupt: an object file cut short (down to nothing), or
// one with bytes after its end, reads as corrupt; a directory in its
// place is an error, not a missing object.
func TestCutObjectIsCorrupt(t *testing.T) {
	s, _ := Open(t.TempDir())
	data := bytes.Repeat([]byte("abcdefgh"), 4096)
	id, _ := s.Put(data)
	p := s.path(id)
	raw, _ := os.ReadFile(p)
	if got, err := s.Get(id); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("whole object: %v", err)
	}
	for _, body := range [][]byte{raw[:0], raw[:1], raw[:len(raw)/2], raw[:len(raw)-1], append(raw[:len(raw):len(raw)], 0)} {
		if err := os.WriteFile(p, body, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := s.Get(id)
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.ID != id {
			t.Fatalf("%d of %d bytes: got %v, want CorruptError", len(body), len(raw), err)
		}
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(id); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("a directory in the object's place: got %v, want a read error", err)
	}
}

func TestGetMissing(t *testing.T) {
	s, _ := Open(t.TempDir())
	if _, err := s.Get(Hash([]byte("nope"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
}

func TestParseID(t *testing.T) {
	id := Hash([]byte("a"))
	p, err := ParseID(id.String())
	if err != nil || p != id {
		t.Fatalf("ParseID(String()) = %v, %v", p, err)
	}
	for _, bad := range []string{"", "zz", id.String()[:63], id.String() + "0", "A" + id.String()[1:]} {
		if _, err := ParseID(bad); !errors.Is(err, ErrInvalidID) {
			t.Errorf("ParseID(%q) = %v, want ErrInvalidID", bad, err)
		}
	}
	if HashParts("ab", "c") == HashParts("a", "bc") {
		t.Fatal("HashParts collides across part boundaries")
	}
}

// TestFullDeviceIsNamedAndLosesNothing simulates ENOSPC in the middle of a
// batch (this runs everywhere; the daemon package repeats it on a real full
// filesystem when it may mount one): the error names the full device, the
// committed objects stay readable, no temporary file is left, and a later
// write with space succeeds.
func TestFullDeviceIsNamedAndLosesNothing(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	kept, err := s.Put([]byte("committed before the device filled"))
	if err != nil {
		t.Fatal(err)
	}
	real := writeTemp
	t.Cleanup(func() { writeTemp = real })
	writes := 0
	writeTemp = func(f *os.File, b []byte) error {
		writes++
		if writes > 1 {
			_, _ = f.Write(b[:len(b)/2])
			return &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return real(f, b)
	}
	b := s.NewBatch()
	if _, err := b.Put([]byte("first object fits")); err != nil {
		t.Fatal(err)
	}
	_, err = b.Put([]byte("second object does not"))
	if !errors.Is(err, ErrNoSpace) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("write on a full device: %v, want ErrNoSpace wrapping ENOSPC", err)
	}
	b.Abort()
	if left, _ := os.ReadDir(filepath.Join(s.Dir(), "tmp")); len(left) != 0 {
		t.Fatalf("temporary files left after the failed batch: %d", len(left))
	}
	if got, err := s.Get(kept); err != nil || string(got) != "committed before the device filled" {
		t.Fatalf("committed object after the failure: %q, %v", got, err)
	}
	if s.Has(Hash([]byte("first object fits"))) {
		t.Fatal("an object of the aborted batch became visible")
	}
	writeTemp = real
	id, err := s.Put([]byte("second object does not"))
	if err != nil || !s.Has(id) {
		t.Fatalf("write with space again: %v", err)
	}
}

// TestGetEach: each index gets what Get gives for its id, the missing one
// ErrNotFound, and every index is called once.
func TestGetEach(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var ids []ID
	for i := range 50 {
		id, err := s.Put(bytes.Repeat([]byte{byte(i)}, 100+i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	ids = append(ids, Hash([]byte("not stored")))
	got := make([][]byte, len(ids))
	errs := make([]error, len(ids))
	calls := make([]int, len(ids))
	var mu sync.Mutex
	s.GetEach(ids, func(i int, data []byte, err error) {
		mu.Lock()
		defer mu.Unlock()
		got[i], errs[i], calls[i] = data, err, calls[i]+1
	})
	for i := range ids {
		if calls[i] != 1 {
			t.Fatalf("index %d called %d times", i, calls[i])
		}
	}
	for i := range 50 {
		if errs[i] != nil || !bytes.Equal(got[i], bytes.Repeat([]byte{byte(i)}, 100+i)) {
			t.Fatalf("index %d: %d bytes, %v", i, len(got[i]), errs[i])
		}
	}
	if !errors.Is(errs[50], ErrNotFound) {
		t.Fatalf("the missing object: %v", errs[50])
	}
}
