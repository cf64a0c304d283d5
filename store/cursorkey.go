package store

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
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
// from the generation, and the next writer creates the file.
func (l Layout) ReadCursorKey() ([]byte, error) {
	b, err := os.ReadFile(l.CursorKey())
	if err != nil {
		return nil, err
	}
	if len(b) != CursorKeyLen {
		return nil, ErrBadCursorKey
	}
	return b, nil
}

// ensureCursorKey creates the key file when it does not exist; an existing
// file is never replaced. The key is written to a private temporary file
// and linked into place, so it is complete whenever it exists.
func ensureCursorKey(p string) error {
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		return nil // present, or unreadable: readers fall back, nothing is overwritten
	}
	key := make([]byte, CursorKeyLen)
	if _, err := rand.Read(key); err != nil {
		return err
	}
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
