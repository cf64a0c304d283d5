package store

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"

	"ctx/objects"
)

// CursorKeyLen is the length of the key that signs paging cursors.
const CursorKeyLen = 32

// ErrBadCursorKey is returned by ReadCursorKey for a key file of the wrong
// size.
var ErrBadCursorKey = errors.New("store: cursor key file is damaged")

// ReadCursorKey returns the store's cursor key. A store written before the
// writer created one has none (fs.ErrNotExist): readers then derive a key
// from the generation, and the next writer creates the file. The file is
// the key and its CRC-32C (big-endian), so that a flipped byte is damage
// rather than a silently different key; a key file of older stores is the
// key alone.
func (l Layout) ReadCursorKey() ([]byte, error) {
	b, err := os.ReadFile(l.CursorKey())
	if err != nil {
		return nil, err
	}
	switch {
	case len(b) == CursorKeyLen:
		return b, nil
	case len(b) == CursorKeyLen+4 && binary.BigEndian.Uint32(b[CursorKeyLen:]) == crc32.Checksum(b[:CursorKeyLen], keyTable):
		return b[:CursorKeyLen], nil
	}
	return nil, ErrBadCursorKey
}

var keyTable = crc32.MakeTable(crc32.Castagnoli)

// ensureCursorKey creates the key file when it does not exist; an existing
// file is never replaced. The key is written to a private temporary file
// and linked into place, so it is complete whenever it exists.
func ensureCursorKey(p string) error {
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		return nil // present, or unreadable: readers fall back, nothing is overwritten
	}
	key := make([]byte, CursorKeyLen, CursorKeyLen+4)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	key = binary.BigEndian.AppendUint32(key, crc32.Checksum(key, keyTable))
	var suffix [8]byte
	_, _ = rand.Read(suffix[:])
	tmp := p + ".tmp-" + base64.RawURLEncoding.EncodeToString(suffix[:])
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	_, werr := f.Write(key)
	serr := f.Sync()
	if cerr := f.Close(); werr == nil && serr == nil {
		werr = cerr
	}
	if werr != nil || serr != nil {
		return errors.Join(werr, serr)
	}
	if err := os.Link(tmp, p); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return objects.SyncDir(filepath.Dir(p))
}
