package jsonl

import (
	"bytes"
	"os"
)

// markBytes is how many bytes of the file's start, and of what comes just
// before where a reader stopped, a Mark compares.
const markBytes = 4096

// Mark is where a reader that holds a parse open stopped in a file (past
// its last complete line), and what tells that a file is still that one
// when the reader goes on: the same inode, at least as long, with the same
// bytes at its start and just before where it stopped.
type Mark struct {
	End          int64 // the offset past the last complete line read
	Next         int   // the number of the line after it
	file         os.FileInfo
	head, before []byte
}

// NewMark returns the mark of a file not read yet.
func NewMark() Mark { return Mark{Next: 1} }

// Same reports whether fh is the file marked.
func (m *Mark) Same(fh *os.File) bool {
	fi, err := fh.Stat()
	if err != nil || m.file == nil || fi.Size() < m.End || !os.SameFile(fi, m.file) {
		return false
	}
	head, err1 := readAt(fh, 0, int64(len(m.head)))
	before, err2 := readAt(fh, m.End-int64(len(m.before)), int64(len(m.before)))
	return err1 == nil && err2 == nil && bytes.Equal(head, m.head) && bytes.Equal(before, m.before)
}

// Set moves the mark to where ReadFrom stopped in fh, and notes what
// identifies fh.
func (m *Mark) Set(fh *os.File, stop Stop) error {
	m.End, m.Next = stop.End, stop.Next
	var err error
	if m.file, err = fh.Stat(); err != nil {
		return err
	}
	n := min(markBytes, m.End)
	if m.head, err = readAt(fh, 0, n); err != nil {
		return err
	}
	m.before, err = readAt(fh, m.End-n, n)
	return err
}

// readAt reads n bytes of f at off.
func readAt(f *os.File, off, n int64) ([]byte, error) {
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}
