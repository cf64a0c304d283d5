package query

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"sync"

	"ctx/objects"
	"ctx/store"
)

// Cursors are opaque continuation tokens of paged reads (spec 000): ASCII
// (unpadded base64url), at most MaxCursorLen bytes, exclusive (they point
// after the last returned item), bound to the pinned generation and to the
// exact request, and authenticated with HMAC-SHA256.
//
// Layout before base64: version, kind, generation id (32 bytes), binding
// (32 bytes: a hash of the request the cursor continues), session position
// and ordinal (uvarints), then the MAC (32 bytes) over everything before it.
//
// Key: 32 random bytes in $CTX_HOME/cursor.key (mode 0600), created by the
// writer (store.OpenWriter); readers only read it. When a store has none yet
// (written by an older version), or the key file is unreadable or damaged, the key is derived
// from the generation id the cursor names instead: such cursors still detect
// edits and bind to their request and generation, but anyone who knows the
// generation id can forge one, so the forgery check is weaker.
//
// Checks, in order: syntax and MAC (invalid_cursor), kind and request
// binding (cursor_mismatch), generation (cursor_stale). No message ever
// echoes the cursor.

// MaxCursorLen bounds a cursor's encoded length (spec 000).
const MaxCursorLen = 4096

const (
	cursorVersion = 1
	cursorMACLen  = sha256.Size
	// cursorHeadLen is version + kind + generation + binding.
	cursorHeadLen = 2 + objects.IDSize + sha256.Size
	// cursorMaxEncoded bounds the encoded length of cursors this package
	// writes (two maximal uvarints); page byte budgets reserve it.
	cursorMaxEncoded = (cursorHeadLen + 2*binary.MaxVarintLen64 + cursorMACLen + 2) / 3 * 4
)

// Cursor kinds: what a cursor continues.
const (
	cursorShowSession  byte = 1
	cursorListEvents   byte = 2
	cursorListSessions byte = 3 // Session holds the offset of the next page
)

var cursorEncoding = base64.RawURLEncoding.Strict()

// cursorPos is the decoded content of a cursor.
type cursorPos struct {
	Kind    byte
	Gen     objects.ID
	Binding [sha256.Size]byte
	Session uint64 // list: tree index of the last returned event's session
	Ordinal uint64 // ordinal of the last returned event
}

// keyFunc returns the MAC key for a cursor naming generation gen.
type keyFunc func(gen objects.ID) []byte

func (c *cursorPos) payload() []byte {
	b := make([]byte, 0, cursorHeadLen+2*binary.MaxVarintLen64+cursorMACLen)
	b = append(b, cursorVersion, c.Kind)
	b = append(b, c.Gen[:]...)
	b = append(b, c.Binding[:]...)
	b = binary.AppendUvarint(b, c.Session)
	return binary.AppendUvarint(b, c.Ordinal)
}

func cursorMAC(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// encodeCursor returns the printable cursor for c.
func encodeCursor(c cursorPos, key keyFunc) string {
	p := c.payload()
	return cursorEncoding.EncodeToString(append(p, cursorMAC(key(c.Gen), p)...))
}

func invalidCursor() error {
	return Errorf(CodeInvalidCursor, "the cursor is not valid: restart from the first page without a cursor")
}

// decodeCursor parses and authenticates s. It checks neither kind, binding
// nor generation (see checkCursor).
func decodeCursor(s string, key keyFunc) (cursorPos, error) {
	var c cursorPos
	if s == "" || len(s) > MaxCursorLen {
		return c, invalidCursor()
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return c, invalidCursor()
		}
	}
	raw, err := cursorEncoding.DecodeString(s)
	if err != nil || len(raw) < cursorHeadLen+2+cursorMACLen || raw[0] != cursorVersion {
		return c, invalidCursor()
	}
	body, mac := raw[:len(raw)-cursorMACLen], raw[len(raw)-cursorMACLen:]
	c.Kind = body[1]
	copy(c.Gen[:], body[2:2+objects.IDSize])
	if !hmac.Equal(mac, cursorMAC(key(c.Gen), body)) {
		return cursorPos{}, invalidCursor()
	}
	copy(c.Binding[:], body[2+objects.IDSize:cursorHeadLen])
	rest := body[cursorHeadLen:]
	var n int
	if c.Session, n = binary.Uvarint(rest); n <= 0 {
		return cursorPos{}, invalidCursor()
	}
	rest = rest[n:]
	if c.Ordinal, n = binary.Uvarint(rest); n <= 0 || n != len(rest) {
		return cursorPos{}, invalidCursor()
	}
	return c, nil
}

// checkCursor decodes s and checks that it continues a request of this kind
// and binding on generation gen.
func checkCursor(s string, key keyFunc, kind byte, binding [sha256.Size]byte, gen objects.ID) (cursorPos, error) {
	c, err := decodeCursor(s, key)
	if err != nil {
		return c, err
	}
	if c.Kind != kind || c.Binding != binding {
		return c, Errorf(CodeCursorMismatch, "the cursor belongs to another request: continue with the same arguments, or restart without a cursor")
	}
	if c.Gen != gen {
		return c, Errorf(CodeCursorStale, "the cursor belongs to an older generation of the history: restart from the first page")
	}
	return c, nil
}

// bindingOf hashes the parts that identify a paged request.
func bindingOf(parts ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	for _, p := range parts {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var out [sha256.Size]byte
	copy(out[:], h.Sum(nil))
	return out
}

// cursorKeys caches the persistent keys by store directory.
var cursorKeys sync.Map

// cursorKey returns the reader's key function: the store's persistent key,
// or the generation-derived fallback when the store cannot hold one.
func (r *Reader) cursorKey() keyFunc {
	if k, ok := cursorKeys.Load(r.home); ok {
		key := k.([]byte)
		return func(objects.ID) []byte { return key }
	}
	key, err := store.At(r.home).ReadCursorKey()
	if err != nil {
		return derivedCursorKey
	}
	cursorKeys.Store(r.home, key)
	return func(objects.ID) []byte { return key }
}

// derivedCursorKey is the fallback key of a read-only store.
func derivedCursorKey(gen objects.ID) []byte {
	h := sha256.Sum256(append([]byte("ctx cursor key v1\x00"), gen[:]...))
	return h[:]
}
