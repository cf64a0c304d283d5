package daemon

import (
	"ctx/store"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Log rotation limits.
const (
	LogMaxBytes = 5 << 20 // rotate when the log would grow past this
	LogKeep     = 2       // rotated files kept: daemon.log.1, daemon.log.2
)

// rotatingLog is an append-only file that renames itself to .1 (and .1 to
// .2, …) when it would grow past max bytes.
type rotatingLog struct {
	mu   sync.Mutex
	path string
	max  int64
	keep int
	f    *os.File
	size int64
}

// openLog opens (creating) the daemon log of the store at home.
func openLog(home string) (*rotatingLog, error) {
	l := &rotatingLog{path: store.At(home).DaemonLog(), max: LogMaxBytes, keep: LogKeep}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return nil, fmt.Errorf("daemon log: %w", err)
	}
	return l, l.open()
}

func (l *rotatingLog) open() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("daemon log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("daemon log: %w", err)
	}
	l.f, l.size = f, fi.Size()
	return nil
}

func (l *rotatingLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return 0, os.ErrClosed
	}
	if l.size > 0 && l.size+int64(len(p)) > l.max {
		if err := l.rotate(); err != nil {
			return 0, err
		}
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}

// rotate shifts path.N to path.N+1 (dropping the last) and path to path.1.
func (l *rotatingLog) rotate() error {
	l.f.Close()
	l.f = nil
	for i := l.keep; i >= 1; i-- {
		src := l.path
		if i > 1 {
			src = fmt.Sprintf("%s.%d", l.path, i-1)
		}
		_ = os.Rename(src, fmt.Sprintf("%s.%d", l.path, i))
	}
	return l.open()
}

func (l *rotatingLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
