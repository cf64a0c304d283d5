// Package jsonl reads append-only JSON Lines history files the way live agent
// files need: a torn last line, invalid or binary lines and over-long lines
// are reported by code and skipped, and every good line is delivered.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

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
	br := bufio.NewReaderSize(r, 256<<10)
	var problems []core.Problem
	var off int64
	buf := make([]byte, 0, 64<<10)
	for no := 1; ; no++ {
		buf = buf[:0]
		start := off
		tooLong, complete := false, false
		for {
			frag, err := br.ReadSlice('\n')
			off += int64(len(frag))
			if !tooLong {
				if len(buf)+len(frag) > MaxLine+1 {
					tooLong, buf = true, buf[:0]
				} else {
					buf = append(buf, frag...)
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
			return problems, err
		}
		if !complete && len(buf) == 0 && !tooLong {
			return problems, nil // clean end of file
		}
		if tooLong {
			problems = append(problems, core.Problem{Code: core.ProblemLineTooLong, Line: no})
			if !complete {
				return problems, nil
			}
			continue
		}
		line := bytes.TrimRight(buf, "\r\n")
		if len(bytes.TrimSpace(line)) == 0 {
			if !complete {
				return problems, nil
			}
			continue
		}
		if code := classify(line); code != "" {
			if !complete && code == core.ProblemInvalidJSON {
				code = core.ProblemTornLine
			}
			problems = append(problems, core.Problem{Code: code, Line: no})
		} else if err := fn(Line{No: no, Offset: start, Data: line}); err != nil {
			return problems, err
		}
		if !complete {
			return problems, nil
		}
	}
}

func classify(line []byte) string {
	if bytes.IndexByte(line, 0) >= 0 || !utf8.Valid(line) {
		return core.ProblemBinaryLine
	}
	if !json.Valid(line) {
		return core.ProblemInvalidJSON
	}
	return ""
}
