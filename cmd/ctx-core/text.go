package main

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"ctx/core"
	"ctx/query"
)

// clean makes untrusted text safe for a terminal: escape sequences
// (colours, titles, links that tools wrote into their output) are removed,
// and control characters other than newline and tab (carriage returns,
// bells, C1 controls, a lone ESC) are shown escaped instead of being
// interpreted.
func clean(s string) string {
	var b strings.Builder
	for _, r := range core.StripEscapes(s) {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == unicode.ReplacementChar:
			b.WriteRune(r)
		case unicode.IsControl(r) || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// oneLine cleans s and folds it onto one line.
func oneLine(s string) string {
	if plainLine(s) {
		return s // what clean and the folding would return, without their copies
	}
	return strings.Join(strings.Fields(clean(s)), " ")
}

// plainLine reports whether s is printable ASCII with single spaces
// between words and none at its ends.
func plainLine(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

// parseTime reads a --since/--until value (query.ParseTime).
func parseTime(s string, now time.Time) (time.Time, error) {
	t, err := query.ParseTime(s, now, "a time")
	if err != nil {
		return t, usagef("bad time: want RFC 3339, YYYY-MM-DD, today, yesterday, or an age such as 90m, 36h, 3d or 2w")
	}
	return t, nil
}
