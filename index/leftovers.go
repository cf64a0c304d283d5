package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// buildPrefix names a shard's directory while it is being built;
// prebuildPrefix a build directory in the instant between its creation and
// its lock.
const (
	buildPrefix    = ".build-"
	prebuildPrefix = ".prebuild-"
)

// prebuildAge is how old an unlocked prebuild directory must be before
// CleanBuilds takes it for a leftover: one exists for the microseconds
// between mkdir and flock, unless its process died there.
const prebuildAge = time.Minute

// A shard being built holds an exclusive flock on its build directory for
// as long as it is written. The lock dies with its process, so a build
// directory nobody holds is what a killed import or merge left behind, and
// CleanBuilds removes it; one being written (a merge beside imports, in
// this process or another) is left alone.

// lockBuildDir creates dir (0700) and takes the build lock on it. The
// directory is made and locked under a prebuild name and only then renamed
// to dir (the lock follows the directory), so that a build directory is
// never visible unlocked: a CleanBuilds beside it (a merge building while
// an import starts) would otherwise remove it between mkdir and flock.
func lockBuildDir(dir string) (*os.File, error) {
	pre, err := os.MkdirTemp(filepath.Dir(dir), prebuildPrefix+"*")
	if err != nil {
		return nil, err
	}
	f, err := os.Open(pre)
	if err != nil {
		_ = os.Remove(pre)
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		_ = os.Remove(pre)
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(dir), err)
	}
	if err := os.Rename(pre, dir); err != nil {
		f.Close()
		_ = os.Remove(pre)
		return nil, err
	}
	return f, nil
}

// Leftovers is what CleanBuilds removed.
type Leftovers struct {
	Dirs  int
	Bytes int64
}

// CleanBuilds removes the build directories under root that no live
// builder holds. The caller holds the writer lock (no new import starts);
// a build in flight keeps its directory.
func CleanBuilds(root string) (Leftovers, error) {
	var out Leftovers
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("index: leftovers: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() || !leftover(root, e) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		size := dirSize(dir)
		if err := os.RemoveAll(dir); err != nil {
			return out, fmt.Errorf("index: leftovers: %w", err)
		}
		out.Dirs++
		out.Bytes += size
	}
	return out, nil
}

// leftover reports whether an index entry is a build directory no live
// builder holds: an unlocked build directory, or a prebuild one that has
// been unlocked for longer than any mkdir-to-flock takes.
func leftover(root string, e os.DirEntry) bool {
	dir := filepath.Join(root, e.Name())
	switch {
	case strings.HasPrefix(e.Name(), buildPrefix):
		return !held(dir)
	case strings.HasPrefix(e.Name(), prebuildPrefix):
		fi, err := e.Info()
		return err == nil && time.Since(fi.ModTime()) > prebuildAge && !held(dir)
	}
	return false
}

// InFlight reports whether name (an entry of the index directory) is a
// build directory a live builder holds (or one it is about to lock).
func InFlight(root, name string) bool {
	if !strings.HasPrefix(name, buildPrefix) && !strings.HasPrefix(name, prebuildPrefix) {
		return false
	}
	fi, err := os.Lstat(filepath.Join(root, name))
	return err == nil && !leftover(root, fs.FileInfoToDirEntry(fi))
}

// held reports whether a live builder holds dir's build lock; a directory
// that cannot be opened is not held.
func held(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
