package corpus

import (
	"bufio"
	"os"
	"path/filepath"
)

const (
	dirMode  = 0o700
	fileMode = 0o600
)

// writer creates the corpus files, keeps the first error and totals Stats.
type writer struct {
	st  Stats
	err error
}

// sink is one transcript file being written line by line.
type sink struct {
	f   *os.File
	w   *bufio.Writer
	n   int64
	err error
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// create opens path for writing, making its directories. On error the
// returned sink discards lines and the error is kept in w.
func (w *writer) create(path string) *sink {
	f, err := openFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY)
	if err != nil {
		w.fail(err)
		return &sink{err: err}
	}
	return &sink{f: f, w: bufio.NewWriterSize(f, 256<<10)}
}

func openFile(path string, flag int) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, flag, fileMode)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(fileMode); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// line writes b and a newline.
func (s *sink) line(b []byte) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = err
		return
	}
	s.err = s.w.WriteByte('\n')
	s.n += int64(len(b)) + 1
}

func (s *sink) close() error {
	if s.f == nil {
		return s.err
	}
	if s.err == nil {
		s.err = s.w.Flush()
	}
	if err := s.f.Close(); s.err == nil {
		s.err = err
	}
	return s.err
}

// finish closes a transcript and counts it.
func (w *writer) finish(s *sink, events int) {
	if err := s.close(); err != nil {
		w.fail(err)
		return
	}
	w.st.Files++
	w.st.Sessions++
	w.st.Events += events
	w.st.Bytes += s.n
}

// writeFile writes a small whole file such as a subagent .meta.json.
func (w *writer) writeFile(path string, b []byte) {
	f, err := openFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY)
	if err == nil {
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		w.fail(err)
		return
	}
	w.st.Files++
	w.st.Bytes += int64(len(b))
}
