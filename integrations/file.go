package integrations

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// BackupSuffix names the copy of the previous contents kept beside a file
// that ctx changed.
const BackupSuffix = ".ctx-backup"

// errChanged means the file changed after it was read; the edit is redone.
var errChanged = errors.New("file changed while editing")

// configFile is one configuration file as read.
type configFile struct {
	path   string      // the configured path
	target string      // where it is written: path with symbolic links resolved
	data   []byte      // contents; nil when the file does not exist
	exists bool        //
	mode   fs.FileMode // permission bits kept on rewrite; 0600 for a new file
}

// readConfig reads the file at path, following symbolic links so that a
// linked configuration (a dotfiles checkout) is edited where it lives.
func readConfig(path string) (*configFile, error) {
	f := &configFile{path: path, target: path, mode: 0o600}
	target, err := filepath.EvalSymlinks(path)
	switch {
	case err == nil:
		f.target = target
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	default:
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link to a missing file", path)
		}
		return f, nil
	}
	fi, err := os.Stat(f.target)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if f.data, err = os.ReadFile(f.target); err != nil {
		return nil, err
	}
	f.exists, f.mode = true, fi.Mode().Perm()
	return f, nil
}

// replace writes data in place of the file, atomically, after checking the
// file still holds what was read. The previous contents are kept in a
// backup beside it, whose path is returned.
func (f *configFile) replace(data []byte) (backup string, err error) {
	dir := filepath.Dir(f.target)
	if !f.exists {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
	}
	cur, err := os.ReadFile(f.target)
	switch {
	case f.exists && (err != nil || !bytes.Equal(cur, f.data)):
		return "", errChanged
	case !f.exists && !errors.Is(err, fs.ErrNotExist):
		return "", errChanged
	}
	if f.exists {
		backup = f.target + BackupSuffix
		if err := writeAtomic(backup, f.data, f.mode); err != nil {
			return "", err
		}
	}
	return backup, writeAtomic(f.target, data, f.mode)
}

// writeAtomic writes data to a temporary file in path's directory and
// renames it over path, so readers see the old or the new file, never a
// partial one.
func writeAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".ctx-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir makes a rename durable where the platform allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
