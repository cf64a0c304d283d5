package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrBusy is returned by Lock when another writer holds the store and the
// caller chose not to wait.
var ErrBusy = errors.New("the store is busy: another ctx import is writing it")

// WriterLock is the exclusive writer lock of a store.
type WriterLock struct{ f *os.File }

// Lock takes the writer lock of the store in home. When another process
// holds it, busy is called once and Lock waits until the lock is free or ctx
// ends; a nil busy makes Lock return ErrBusy at once.
func Lock(ctx context.Context, home string, busy func()) (*WriterLock, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(home, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	for first := true; ; first = false {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return &WriterLock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock: %w", err)
		}
		if busy == nil {
			f.Close()
			return nil, ErrBusy
		}
		if first {
			busy()
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("%w: %v", ErrBusy, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Unlock releases the lock.
func (l *WriterLock) Unlock() error {
	defer l.f.Close()
	return syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
}
