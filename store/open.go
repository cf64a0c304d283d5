package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"ctx/objects"
	"ctx/refs"
)

// ErrNoStore is returned by OpenReadOnly when home holds no store (nothing
// was ever imported there).
var ErrNoStore = errors.New("store: nothing has been imported yet")

// ErrBusy is returned by OpenWriter when another writer holds the store and
// the caller chose not to wait.
var ErrBusy = errors.New("the store is busy: another ctx import is writing it")

// ReadOnly is a reader's handle on a store. Opening it and reading through
// it create and write nothing under the home, so readers can run on a
// read-only file system and beside a writer.
type ReadOnly struct {
	Layout
	Objects *objects.Store
	Refs    *refs.Refs
}

// OpenReadOnly opens the store rooted at home for reading. A home without
// the objects or refs directory that every import creates is ErrNoStore.
func OpenReadOnly(home string) (*ReadOnly, error) {
	l := At(home)
	if _, err := os.Stat(l.Refs()); errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoStore
	}
	objs, err := objects.OpenExisting(l.Objects())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoStore
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return &ReadOnly{Layout: l, Objects: objs, Refs: refs.OpenExisting(home)}, nil
}

// Exists reports whether home holds a store, without opening it.
func Exists(home string) bool {
	l := At(home)
	for _, d := range []string{l.Objects(), l.Refs()} {
		if _, err := os.Stat(d); err != nil {
			return false
		}
	}
	return true
}

// Writer is the single writer's handle on a store: it holds the writer
// lock until Close.
type Writer struct {
	Layout
	Objects *objects.Store
	Refs    *refs.Refs
	lock    *os.File
}

// OpenWriter takes the writer lock of the store rooted at home, creating
// the store when it does not exist (directories 0700, files 0600). When
// another process holds the lock, busy is called once and OpenWriter waits
// until the lock is free or ctx ends; a nil busy makes it return ErrBusy
// at once.
func OpenWriter(ctx context.Context, home string, busy func()) (*Writer, error) {
	l := At(home)
	lock, err := lockFile(ctx, l.WriterLock(), busy)
	if err != nil {
		return nil, err
	}
	w := &Writer{Layout: l, lock: lock}
	if w.Objects, err = objects.Open(l.Objects()); err == nil {
		w.Refs, err = refs.Open(home)
	}
	if err == nil {
		err = ensureCursorKey(l.CursorKey())
	}
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	return w, nil
}

// Close releases the writer lock.
func (w *Writer) Close() error { return unlockFile(w.lock) }
