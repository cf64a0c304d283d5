package refs

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ctx/objects"
)

// Active is the ref every reader pins.
const Active = "active"

var (
	// ErrStale is returned by Update when the ref no longer holds old.
	ErrStale = errors.New("refs: ref changed since it was read (stale)")
	// ErrLocked is returned when another writer holds the ref's lock.
	ErrLocked = errors.New("refs: ref is locked by another writer")
	// ErrNoRef is returned by Get for a ref that was never set.
	ErrNoRef = errors.New("refs: no such ref")
)

// Refs is the ref directory of a store.
type Refs struct {
	dir string // $CTX_HOME
	now func() time.Time
}

// Open opens the refs of the store rooted at dir ($CTX_HOME).
func Open(dir string) (*Refs, error) {
	for _, d := range []string{filepath.Join(dir, "refs"), filepath.Join(dir, "logs", "refs")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("refs: %w", err)
		}
	}
	return &Refs{dir: dir, now: time.Now}, nil
}

// OpenExisting opens the refs under dir for reading (Get, Log): unlike Open
// it creates nothing.
func OpenExisting(dir string) *Refs { return &Refs{dir: dir, now: time.Now} }

func (r *Refs) path(name string) string { return filepath.Join(r.dir, "refs", name) }
func (r *Refs) log(name string) string  { return filepath.Join(r.dir, "logs", "refs", name) }

// Get returns the generation a ref names.
func (r *Refs) Get(name string) (objects.ID, error) {
	b, err := os.ReadFile(r.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return objects.ID{}, ErrNoRef
	}
	if err != nil {
		return objects.ID{}, fmt.Errorf("refs: read %s: %w", name, err)
	}
	id, err := objects.ParseID(strings.TrimSpace(string(b)))
	if err != nil {
		return objects.ID{}, fmt.Errorf("refs: %s: %w", name, err)
	}
	return id, nil
}

// Update sets ref name to next if it still holds old (the zero ID means the
// ref must not exist yet). It is the only way a ref changes.
func (r *Refs) Update(name string, old, next objects.ID, message string) error {
	lock := r.path(name) + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return ErrLocked
	}
	if err != nil {
		return fmt.Errorf("refs: lock %s: %w", name, err)
	}
	committed := false
	defer func() {
		if !committed {
			f.Close()
			os.Remove(lock)
		}
	}()
	cur, err := r.Get(name)
	switch {
	case errors.Is(err, ErrNoRef):
		cur = objects.ID{}
	case err != nil:
		return err
	}
	if cur != old {
		return ErrStale
	}
	if _, err := f.WriteString(next.String() + "\n"); err != nil {
		return fmt.Errorf("refs: write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("refs: sync %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("refs: close %s: %w", name, err)
	}
	if err := os.Rename(lock, r.path(name)); err != nil {
		return fmt.Errorf("refs: publish %s: %w", name, err)
	}
	committed = true
	if err := objects.SyncDir(filepath.Join(r.dir, "refs")); err != nil {
		return err
	}
	return r.appendLog(name, old, next, message)
}

// BreakLock removes a ref lock left by a writer that died. Only the holder of
// the store's writer lock may call it.
func (r *Refs) BreakLock(name string) error {
	err := os.Remove(r.path(name) + ".lock")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (r *Refs) appendLog(name string, old, next objects.ID, message string) error {
	f, err := os.OpenFile(r.log(name), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("refs: reflog: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString(logLine(old, next, r.now().Unix(), message)); err != nil {
		return fmt.Errorf("refs: reflog: %w", err)
	}
	return f.Sync()
}

// LogEntry is one reflog line.
type LogEntry struct {
	Old, New objects.ID
	Time     time.Time
	Message  string
}

// Log returns the reflog of a ref, oldest first. Lines that do not parse or
// do not match their sum (a torn last line after a crash) are skipped;
// CheckLog names them.
func (r *Refs) Log(name string) ([]LogEntry, error) {
	c, err := r.CheckLog(name)
	if err != nil {
		return nil, err
	}
	return c.Entries, nil
}

// RepairLog appends the reflog line of a ref whose last update died between
// moving the ref and logging it (a crash in that window), so that the
// generation it names is kept like every other published one. Only the
// holder of the store's writer lock may call it.
func (r *Refs) RepairLog(name string) error {
	cur, err := r.Get(name)
	if errors.Is(err, ErrNoRef) {
		return nil
	}
	if err != nil {
		return err
	}
	e, ok, err := r.lastLogEntry(name)
	if err != nil {
		return err
	}
	var last objects.ID
	if ok {
		last = e.New
		if last == cur {
			return nil
		}
	}
	return r.appendLog(name, last, cur, "recovered: the ref moved but its log line was not written")
}

// ExpireLog rewrites the reflog of a ref keeping only the entries keep
// accepts (atomically: temp file, fsync, rename); keep is given the whole
// log, oldest first, and the index of the entry it is asked about. A kept
// entry whose older neighbours were dropped is rewritten to move from the
// kept entry before it, so that the log still chains.
func (r *Refs) ExpireLog(name string, keep func(log []LogEntry, i int) bool) error {
	log, err := r.Log(name)
	if err != nil {
		return err
	}
	tmp := r.log(name) + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("refs: reflog: %w", err)
	}
	w := bufio.NewWriter(f)
	var prev *LogEntry
	for i, e := range log {
		if !keep(log, i) {
			continue
		}
		if prev != nil {
			e.Old = prev.New
		}
		w.WriteString(logLine(e.Old, e.New, e.Time.Unix(), e.Message))
		prev = &log[i]
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, r.log(name)); err != nil {
		return err
	}
	return objects.SyncDir(filepath.Dir(r.log(name)))
}
