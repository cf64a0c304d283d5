package mcp

import (
	"strconv"
	"strings"
	"time"
)

// parseTime reads a time argument the way the CLI's --since and --until
// do: RFC 3339, a date-time without zone (UTC), a date (UTC midnight), or
// an age before now such as 7d or 36h. The message never echoes the value.
func parseTime(s string, now time.Time, name string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour).UTC(), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d).UTC(), nil
	}
	return time.Time{}, invalidf("%s must be RFC 3339, YYYY-MM-DD, or an age such as 7d or 36h", name)
}

// isASCIIToken reports whether s is printable ASCII without spaces (the
// shape of ids and cursors).
func isASCIIToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
