package mcp

import (
	"time"

	"ctx/query"
)

// parseTime reads a time argument the way the CLI's --since and --until
// do: RFC 3339, a date-time without zone (UTC), a date (UTC midnight), or
// an age before now such as 7d or 36h. The message never echoes the value.
func parseTime(s string, now time.Time, name string) (time.Time, error) {
	t, err := query.ParseTime(s, now, name)
	if err != nil {
		return t, invalidf("%s must be RFC 3339, YYYY-MM-DD, or an age such as 7d or 36h", name)
	}
	return t, nil
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
