package aider

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"ctx/core"
)

// maxLine is the longest line kept; longer lines are skipped whole and
// reported as line_too_long.
const maxLine = 4 << 20

// readLines calls fn for every complete, readable line of r (without its
// line ending). A line with NUL bytes or invalid UTF-8 is reported as
// binary_line and skipped; an over-long line as line_too_long. A last line
// without a newline is a write in progress: it is reported as torn_line and
// left for the next import.
func readLines(r io.Reader, fn func(no int, line string)) ([]core.Problem, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	var problems []core.Problem
	buf := make([]byte, 0, 4096)
	for no := 1; ; no++ {
		buf = buf[:0]
		tooLong, complete := false, false
		for {
			frag, err := br.ReadSlice('\n')
			if !tooLong {
				if len(buf)+len(frag) > maxLine+2 {
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
		if !complete {
			if len(buf) > 0 || tooLong {
				problems = append(problems, core.Problem{Code: core.ProblemTornLine, Line: no})
			}
			return problems, nil
		}
		switch line := bytes.TrimRight(buf, "\r\n"); {
		case tooLong:
			problems = append(problems, core.Problem{Code: core.ProblemLineTooLong, Line: no})
		case bytes.IndexByte(line, 0) >= 0 || !utf8.Valid(line):
			problems = append(problems, core.Problem{Code: core.ProblemBinaryLine, Line: no})
		default:
			fn(no, string(line))
		}
	}
}
