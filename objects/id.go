package objects

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/zeebo/blake3"
)

// IDSize is the length in bytes of an object ID.
const IDSize = 32

// ID names an object by the blake3-256 hash of its canonical uncompressed bytes.
type ID [IDSize]byte

// ErrInvalidID is returned by ParseID for text that is not 64 lowercase hex digits.
var ErrInvalidID = errors.New("objects: invalid object id")

// Hash is the one function that computes blake3 in ctx: every ID, including the
// derived session and event identities of package core, comes from here.
func Hash(data []byte) ID {
	return ID(blake3.Sum256(data))
}

// HashReader hashes everything r yields, as Hash would hash it in one
// piece, and returns the number of bytes read.
func HashReader(r io.Reader) (ID, int64, error) {
	h := blake3.New()
	n, err := io.Copy(h, r)
	var id ID
	copy(id[:], h.Sum(nil))
	return id, n, err
}

// HashParts hashes the parts separated by NUL bytes, so that ("ab","c") and
// ("a","bc") never collide.
func HashParts(parts ...string) ID {
	h := blake3.New()
	for i, p := range parts {
		if i > 0 {
			_, _ = h.Write([]byte{0})
		}
		_, _ = h.Write([]byte(p))
	}
	var id ID
	copy(id[:], h.Sum(nil))
	return id
}

// ParseID parses the 64-digit lowercase hex form of an ID.
func ParseID(s string) (ID, error) {
	var id ID
	if len(s) != 2*IDSize {
		return id, fmt.Errorf("%w: want %d hex digits, got %d", ErrInvalidID, 2*IDSize, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return id, fmt.Errorf("%w: not lowercase hex", ErrInvalidID)
		}
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, fmt.Errorf("%w: %v", ErrInvalidID, err)
	}
	return id, nil
}

// String returns the 64-digit hex form.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// Short returns the first 12 hex digits, for display only.
func (id ID) Short() string { return hex.EncodeToString(id[:6]) }

// IsZero reports whether id is the zero ID (no object).
func (id ID) IsZero() bool { return id == ID{} }

// MarshalText implements encoding.TextMarshaler.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *ID) UnmarshalText(b []byte) error {
	p, err := ParseID(string(b))
	if err != nil {
		return err
	}
	*id = p
	return nil
}
