package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"ctx/core"
)

// ErrNotRegular is matched (errors.Is) by the error for a path that is not
// a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading when it is a regular file. Any other kind of
// file is a *core.ReadError with code core.ProblemNotRegular wrapping
// ErrNotRegular.
func Open(path string) (*os.File, error) {
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, fi.Mode())
	}
	if err := setBlocking(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile is os.ReadFile through Open.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ReadCompanion reads a file that may stand beside a history file (a
// subagent's meta, a workspace file, a task's metadata). A path of "" or a
// missing file is nil without a problem (a file that exists but is empty
// is an empty, non-nil slice); one that cannot be read is nil with an
// unreadable problem of provider.
func ReadCompanion(path, provider string) ([]byte, *core.Problem) {
	if path == "" {
		return nil, nil
	}
	b, err := ReadFile(path)
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	}
	return nil, &core.Problem{Code: core.ProblemUnreadable, Provider: provider, Path: path}
}

// Parse opens f's file as Open does and hands it to parse, the parser of
// one provider (whole, or streaming: R is its result). An error opening it
// is prefixed with what ("codex: open rollout"), so that one for a file
// that vanished still wraps fs.ErrNotExist.
func Parse[R any](f core.SourceFile, what string, parse func(io.Reader, core.SourceFile) (R, error)) (R, error) {
	fh, err := Open(f.Path)
	if err != nil {
		var none R
		return none, fmt.Errorf("%s: %w", what, err)
	}
	defer fh.Close()
	return parse(fh, f)
}

// Check reports, as Open would, whether path is a regular file that can be
// opened, for callers that hand the path to another opener (SQLite).
func Check(path string) error {
	f, err := Open(path)
	if err != nil {
		return err
	}
	return f.Close()
}

func notRegular(path string, mode os.FileMode) error {
	return &core.ReadError{Code: core.ProblemNotRegular,
		Err: fmt.Errorf("%s (%s): %w", path, mode.Type(), ErrNotRegular)}
}
