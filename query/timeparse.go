package query

import (
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a --since/--until value as the CLI and MCP share it:
// RFC 3339, a date-time without zone or a date (taken as UTC), an age back
// from now in minutes, hours, days or weeks (90m, 36h, 3d, 2w; a Go
// duration such as 1h30m too), or today, yesterday and now. today and
// yesterday are the starts of those days in UTC. The empty string is the
// zero time. The error names the field, never the value.
func ParseTime(s string, now time.Time, field string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	day := now.UTC().Truncate(24 * time.Hour)
	switch strings.ToLower(s) {
	case "now":
		return now.UTC(), nil
	case "today":
		return day, nil
	case "yesterday":
		return day.Add(-24 * time.Hour), nil
	}
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			if v, err := strconv.Atoi(n); err == nil && v >= 0 && v <= maxAgeUnits {
				return now.Add(-time.Duration(v) * unit).UTC(), nil
			}
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d).UTC(), nil
	}
	return time.Time{}, Errorf(CodeInvalidRequest,
		"%s must be RFC 3339, YYYY-MM-DD, today, yesterday, or an age such as 90m, 36h, 3d or 2w", field)
}

// maxAgeUnits bounds an age in days or weeks (about 270 years of days)
// so that it cannot overflow a duration.
const maxAgeUnits = 100000
