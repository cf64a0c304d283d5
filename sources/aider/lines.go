package aider

import (
	"bytes"
	"io"
	"unicode/utf8"

	"ctx/core"
	"ctx/sources/jsonl"
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
	var problems []core.Problem
	// maxLine+1: the limit counts the line without a CRLF ending's "\r".
	err := jsonl.Scan(r, maxLine+1, func(l jsonl.RawLine) error {
		if !l.Complete {
			problems = append(problems, core.Problem{Code: core.ProblemTornLine, Line: l.No})
			return nil
		}
		switch line := bytes.TrimRight(l.Data, "\r\n"); {
		case l.TooLong:
			problems = append(problems, core.Problem{Code: core.ProblemLineTooLong, Line: l.No})
		case bytes.IndexByte(line, 0) >= 0 || !utf8.Valid(line):
			problems = append(problems, core.Problem{Code: core.ProblemBinaryLine, Line: l.No})
		default:
			fn(l.No, string(line))
		}
		return nil
	})
	return problems, err
}
