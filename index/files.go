package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// seal makes a closed shard directory private (dirs 0700, files 0600) and
// durable (every file and directory fsynced), and returns its size in bytes.
// bleve creates some files world-readable and does not sync directories.
func seal(dir string) (int64, error) {
	var size int64
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return os.Chmod(p, 0o700)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		size += info.Size()
		if err := os.Chmod(p, 0o600); err != nil {
			return err
		}
		return syncPath(p)
	})
	if err != nil {
		return 0, err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := syncPath(dirs[i]); err != nil {
			return 0, err
		}
	}
	return size, nil
}

// publishDir renames a sealed temporary directory to its final name and
// syncs the parent, so that a shard directory under its final name is
// always complete.
func publishDir(tmp, final string) error {
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	return syncPath(filepath.Dir(final))
}

func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	serr := f.Sync()
	cerr := f.Close()
	if serr != nil {
		return fmt.Errorf("sync %s: %w", filepath.Base(p), serr)
	}
	return cerr
}

// shardDir returns the directory of a shard, rejecting names that are not a
// plain directory name (or that name a build in progress).
func shardDir(root, name string) (string, error) {
	if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") ||
		strings.ContainsAny(name, `/\`) {
		return "", shardErr(name, "open", ErrInvalidShardName, nil)
	}
	return filepath.Join(root, name), nil
}
