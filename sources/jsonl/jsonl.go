// Package jsonl reads append-only JSON Lines history files the way live agent
// files need: a torn last line, invalid or binary lines and over-long lines
// are reported by code and skipped, and every good line is delivered. A
// line whose only fault is invalid UTF-8 or a raw NUL byte is delivered
// with those bytes replaced by U+FFFD and counted as replaced_bytes.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/segmentio/encoding/json"

	"ctx/core"
)

// MaxLine is the longest line delivered; longer lines are skipped whole
// (without buffering them) and reported as line_too_long.
const MaxLine = 32 << 20

// Line is one good line of a file.
type Line struct {
	No     int    // 1-based line number
	Offset int64  // byte offset of the line's first byte
	Data   []byte // the line without its newline; valid only during the callback
}

// Read calls fn for every line that is valid JSON and returns the problems
// found, each with its code and line number. fn returning an error stops the
// read with that error. The last line is accepted without a newline when it
// is valid JSON, and reported as torn_line otherwise.
func Read(r io.Reader, fn func(Line) error) ([]core.Problem, error) {
	var problems []core.Problem
	err := Scan(r, MaxLine, func(l RawLine) error {
		return deliver(l, &problems, fn)
	})
	return problems, err
}

// Tail is a last line without its newline, which ReadFrom leaves for
// later: its data is a copy (nil when it is too long).
type Tail struct {
	No      int
	Offset  int64
	Data    []byte
	TooLong bool
}

// Stop is where ReadFrom stopped.
type Stop struct {
	End  int64 // the offset past the last complete line
	Next int   // the number of the line after it
	Tail *Tail // a last line without its newline, or nil
}

// ReadFrom is Read over r holding a file's bytes from offset off on,
// whose first line is line no, for a reader that goes on from where an
// earlier one stopped. Only complete lines are delivered: a last line
// without its newline (a writer may be in the middle of it) is returned
// in the Stop, for ReadTail.
func ReadFrom(r io.Reader, no int, off int64, fn func(Line) error) ([]core.Problem, Stop, error) {
	var problems []core.Problem
	stop := Stop{End: off, Next: no}
	err := scan(r, MaxLine, no, off, func(l RawLine) error {
		if !l.Complete {
			stop.Tail = &Tail{No: l.No, Offset: l.Offset, Data: bytes.Clone(l.Data), TooLong: l.TooLong}
			return nil
		}
		stop.End, stop.Next = l.End, l.No+1
		return deliver(l, &problems, fn)
	})
	return problems, stop, err
}

// ReadTail handles a tail as Read handles a file's last line without a
// newline, and returns its problems.
func ReadTail(t *Tail, fn func(Line) error) ([]core.Problem, error) {
	var problems []core.Problem
	err := deliver(RawLine{No: t.No, Offset: t.Offset, Data: t.Data, TooLong: t.TooLong}, &problems, fn)
	return problems, err
}

// deliver handles one line as Read does.
func deliver(l RawLine, problems *[]core.Problem, fn func(Line) error) error {
	if l.TooLong {
		*problems = append(*problems, core.Problem{Code: core.ProblemLineTooLong, Line: l.No})
		return nil
	}
	line := bytes.TrimRight(l.Data, "\r\n")
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	line, replaced := Clean(line)
	if code := classify(line); code != "" {
		if !l.Complete && code == core.ProblemInvalidJSON {
			code = core.ProblemTornLine
		}
		if replaced {
			code = core.ProblemBinaryLine
		}
		*problems = append(*problems, core.Problem{Code: code, Line: l.No})
		return nil
	}
	if replaced {
		*problems = append(*problems, core.Problem{Code: core.ProblemReplacedBytes, Line: l.No})
	}
	return fn(Line{No: l.No, Offset: l.Offset, Data: line})
}

// RawLine is one line as Scan reads it.
type RawLine struct {
	No     int   // 1-based line number
	Offset int64 // byte offset of the line's first byte
	// Data is the line with its line ending (nil when TooLong); valid only
	// during the callback.
	Data []byte
	// Complete is false for a last line without a newline.
	Complete bool
	// TooLong marks a line longer than the limit, skipped without
	// buffering it.
	TooLong bool
	// End is the offset past the line and its line ending.
	End int64
}

// scanner is what Scan reuses from one file to the next: an import reads
// hundreds of files, and a fresh reader and line buffer for each were a
// third of a megabyte of garbage a file.
type scanner struct {
	br  *bufio.Reader
	buf []byte
}

var scanners = sync.Pool{New: func() any {
	return &scanner{br: bufio.NewReaderSize(nil, 256<<10), buf: make([]byte, 0, 64<<10)}
}}

// Scan calls fn for every line of r, including a last line without a
// newline (Complete false), and never buffers more than maxLine bytes of
// one: a longer line is delivered as TooLong without its data. A clean end
// of file delivers nothing more; fn returning an error stops the scan with
// that error, as does a read error.
func Scan(r io.Reader, maxLine int, fn func(RawLine) error) error {
	return scan(r, maxLine, 1, 0, fn)
}

// scan is Scan over lines numbered from no, the first at offset off.
func scan(r io.Reader, maxLine, no int, off int64, fn func(RawLine) error) error {
	sc := scanners.Get().(*scanner)
	defer func() {
		sc.br.Reset(nil)
		scanners.Put(sc)
	}()
	sc.br.Reset(r)
	br := sc.br
	buf := sc.buf[:0]
	defer func() {
		if cap(buf) <= keepLine {
			sc.buf = buf[:0]
		}
	}()
	var hold core.HeapHold // the heap's bound while a huge line is read and handled
	defer hold.Release()
	for ; ; no++ {
		buf = buf[:0]
		start := off
		tooLong, complete := false, false
		for {
			frag, err := br.ReadSlice('\n')
			off += int64(len(frag))
			if !tooLong {
				if len(buf)+len(frag) > maxLine+1 {
					tooLong, buf = true, buf[:0]
				} else {
					buf = append(buf, frag...)
					hold.Hold(len(buf))
				}
			}
			if err == nil {
				complete = true
				break
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				break
			}
			return err
		}
		if !complete && len(buf) == 0 && !tooLong {
			return nil // clean end of file
		}
		l := RawLine{No: no, Offset: start, Complete: complete, TooLong: tooLong, End: off}
		if !tooLong {
			l.Data = buf
		}
		if err := fn(l); err != nil || !complete {
			return err
		}
		if cap(buf) > keepLine {
			buf = make([]byte, 0, 64<<10) // a long line's buffer is not kept for the rest
			hold.Release()
		}
	}
}

// keepLine is the largest line buffer Scan keeps for the next line: one
// grown by a long record would otherwise stay for the rest of the file,
// in memory beside the events that record became.
const keepLine = 1 << 20

// replacement stands for each invalid UTF-8 sequence and raw NUL byte of a
// line: U+FFFD, the Unicode replacement character.
const replacement = "\uFFFD"

// Clean replaces the invalid UTF-8 sequences and raw NUL bytes of a line
// with U+FFFD, so that one bad byte in a record's text costs that byte,
// not the record. It reports whether it replaced any; a line it leaves
// alone is returned as is.
func Clean(line []byte) ([]byte, bool) {
	if bytes.IndexByte(line, 0) < 0 && utf8.Valid(line) {
		return line, false
	}
	out := bytes.ToValidUTF8(line, []byte(replacement))
	return bytes.ReplaceAll(out, []byte{0}, []byte(replacement)), true
}

// classify says what is wrong with a line, or "" when it is valid JSON.
// segmentio's validator answers as encoding/json's does (FuzzValid checks
// it), three times as fast: it was 4% of an import's CPU.
func classify(line []byte) string {
	if !json.Valid(line) {
		return core.ProblemInvalidJSON
	}
	return ""
}
