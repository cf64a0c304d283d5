package aider

import (
	"bytes"
	"io"

	"ctx/core"
	"ctx/sources/jsonl"
)

// maxLine is the longest line kept; longer lines are skipped whole and
// reported as line_too_long.
const maxLine = 4 << 20

// readLines calls fn for every complete, readable line of r (without its
// line ending). A line with NUL bytes or invalid UTF-8 is kept with those
// bytes replaced by U+FFFD and reported as replaced_bytes; an over-long
// line is skipped and reported as line_too_long. A last line
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
		default:
			clean, replaced := jsonl.Clean(line)
			if replaced {
				problems = append(problems, core.Problem{Code: core.ProblemReplacedBytes, Line: l.No})
			}
			fn(l.No, string(clean))
		}
		return nil
	})
	return problems, err
}
