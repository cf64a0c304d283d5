package maint

import (
	"fmt"
	"testing"
	"time"

	"ctx/objects"
	"ctx/refs"
)

// TestRetention: of a reflog written over three weeks, gc keeps every
// generation of the last ten minutes, the newest of each hour of the
// last day and the newest of each day within keep.
func TestRetention(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 30, 0, 0, time.UTC)
	var log []refs.LogEntry
	at := func(ts ...time.Time) {
		for _, x := range ts {
			log = append(log, refs.LogEntry{New: objects.Hash(fmt.Append(nil, len(log))), Time: x})
		}
	}
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	day := func(n int, h, m int) time.Time {
		y, mo, d := now.AddDate(0, 0, -n).Date()
		return time.Date(y, mo, d, h, m, 0, 0, time.UTC)
	}
	// Three weeks ago: past keep.
	at(day(21, 9, 0), day(21, 10, 0))
	// Three days, five, and two days ago: several a day, newest kept.
	at(day(5, 8, 0), day(5, 9, 0), day(5, 23, 59))
	at(day(3, 1, 0), day(3, 2, 0))
	at(day(2, 14, 0))
	// Today and yesterday within a day: several an hour, newest kept.
	at(ago(20*time.Hour+40*time.Minute), ago(20*time.Hour+35*time.Minute)) // 15:50, 15:55 yesterday
	at(ago(3*time.Hour+20*time.Minute), ago(3*time.Hour+5*time.Minute))    // 09:10, 09:25
	at(ago(2*time.Hour + 10*time.Minute))                                  // 10:20
	at(ago(40*time.Minute), ago(25*time.Minute), ago(11*time.Minute))      // 11:50, 12:05, 12:19
	// The last ten minutes: all.
	at(ago(9*time.Minute), ago(5*time.Minute), ago(time.Second))
	want := map[int]bool{
		4: true, 6: true, 7: true, // the newest of each day
		9:  true,           // 15:55 yesterday
		11: true, 12: true, // 09:25, 10:20
		13: true, 15: true, // 11:50; 12:19 (12:05's hour goes on in 12:19)
		16: true, 17: true, 18: true,
	}
	for i := range log {
		if got := retained(log, i, now, 14*24*time.Hour); got != want[i] {
			t.Errorf("entry %d at %s: kept %v, want %v", i, log[i].Time.Format(time.DateTime), got, want[i])
		}
	}
	// keep bounds every tier: a day keeps nothing older, ten minutes
	// keep only the last ten minutes, and no keep keeps none of it.
	for _, c := range []struct {
		keep time.Duration
		from int
	}{{24 * time.Hour, 8}, {10 * time.Minute, 16}, {0, len(log)}} {
		for i := range log {
			got := retained(log, i, now, c.keep)
			if i < c.from && got || i >= c.from && got != want[i] {
				t.Errorf("keep %s, entry %d: kept %v", c.keep, i, got)
			}
		}
	}
}
