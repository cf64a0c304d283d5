package query

import (
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a --since/--until value as the CLI and MCP share it:
// RFC 3339, a date-time without zone or a date (taken as UTC), or an age
// back from now such as 7d or 36h. The empty string is the zero time. The
// error names the field, never the value.
func ParseTime(s string, now time.Time, field string) (time.Time, error) {
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
	return time.Time{}, Errorf(CodeInvalidRequest, "%s must be RFC 3339, YYYY-MM-DD, or an age such as 7d or 36h", field)
}
