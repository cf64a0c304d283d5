package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// buildPrefix names a shard's directory while it is being built.
const buildPrefix = ".build-"

// A shard being built holds an exclusive flock on its build directory for
// as long as it is written. The lock dies with its process, so a build
// directory nobody holds is what a killed import or merge left behind, and
// CleanBuilds removes it; one being written (a merge beside imports, in
// this process or another) is left alone.

// lockBuildDir creates dir (0700) and takes the build lock on it.
func lockBuildDir(dir string) (*os.File, error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		_ = os.Remove(dir)
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		_ = os.Remove(dir)
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(dir), err)
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
		if !e.IsDir() || !strings.HasPrefix(e.Name(), buildPrefix) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if held(dir) {
			continue
		}
		size := dirSize(dir)
		if err := os.RemoveAll(dir); err != nil {
			return out, fmt.Errorf("index: leftovers: %w", err)
		}
		out.Dirs++
		out.Bytes += size
	}
	return out, nil
}

// InFlight reports whether name (an entry of the index directory) is a
// build directory a live builder holds.
func InFlight(root, name string) bool {
	return strings.HasPrefix(name, buildPrefix) && held(filepath.Join(root, name))
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
