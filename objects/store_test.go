package objects

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
