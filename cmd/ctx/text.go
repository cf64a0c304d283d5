package main

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// clean makes untrusted text safe for a terminal: control characters other
// than newline and tab (escape sequences, carriage returns, bells, C1
// controls) are shown escaped instead of being interpreted.
func clean(s string) string {
	var b strings.Builder
	for _, r := range s {
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
	return strings.Join(strings.Fields(clean(s)), " ")
}

// parseTime accepts RFC 3339, a date, or a duration back from now (7d, 36h).
func parseTime(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	if strings.HasSuffix(s, "d") {
		var days int
		if _, err := fmt.Sscanf(s, "%dd", &days); err == nil && days >= 0 {
			return now.Add(-time.Duration(days) * 24 * time.Hour).UTC(), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d).UTC(), nil
	}
	return time.Time{}, usagef("bad time: want RFC 3339, YYYY-MM-DD, or a duration like 7d or 36h")
}
