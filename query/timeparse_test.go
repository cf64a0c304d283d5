package query

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 12, 1, 15, 30, 0, 0, time.UTC)
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"":                     {},
		"2026-11-02":           time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
		"2026-11-02T10:00:00Z": time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC),
		"today":                day,
		"Yesterday":            day.Add(-24 * time.Hour),
		"now":                  now,
		"3d":                   now.Add(-72 * time.Hour),
		"2w":                   now.Add(-14 * 24 * time.Hour),
		"36h":                  now.Add(-36 * time.Hour),
		"90m":                  now.Add(-90 * time.Minute),
		" 7d ":                 now.Add(-7 * 24 * time.Hour),
	} {
		got, err := ParseTime(in, now, "since")
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"soon", "-3d", "3x", "99999999999w", "2w3d"} {
		if _, err := ParseTime(bad, now, "since"); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
}
