package query

import (
	"ctx/core"
	"slices"
	"strings"
	"time"
)

// KindTimeline is the kind of Timeline.
const KindTimeline = "timeline"

// TimelineRequest selects the sessions of a timeline; Commits are the
// commits with ctx notes in the window, which the caller reads from git
// (the blame layer) and the timeline places on their days. Location
// decides where a day begins (nil: UTC).
type TimelineRequest struct {
	Filter   core.Filter // a session filter (SessionsRequest.Filter)
	Commits  []TimelineCommit
	Location *time.Location
}

// TimelineCommit is a commit whose ctx note cites agent sessions.
type TimelineCommit struct {
	Commit   string    `json:"commit"`
	Time     time.Time `json:"time"`
	Subject  string    `json:"subject"`
	Repo     string    `json:"repo"`
	Sessions []string  `json:"sessions"` // ctx_session_ids the note cites
}

// TimelineSession is a session on its day: its row, and the files it
// edited (at most core.DigestMaxFiles; files_edited counts them all).
type TimelineSession struct {
	SessionRow
	Files []string `json:"files"`
}

// TimelineDay is one day with activity, newest first in a Timeline.
type TimelineDay struct {
	Date     string            `json:"date"` // YYYY-MM-DD in the timeline's location
	Sessions []TimelineSession `json:"sessions"`
	Commits  []TimelineCommit  `json:"commits"`
	Events   int               `json:"events"`
}

// Timeline is the sessions and noted commits of a window day by day
// (kind "timeline"). A session is on the day it started.
type Timeline struct {
	Kind       string          `json:"kind"`
	Generation GenerationRef   `json:"generation"`
	Selection  FilterSelection `json:"selection"`
	Location   string          `json:"location"`
	Days       []TimelineDay   `json:"days"`
	Sessions   int             `json:"sessions"`
	Events     int             `json:"events"`
	Commits    int             `json:"commits"`
}

// Timeline builds the timeline of the request from the tree alone.
func (r *Reader) Timeline(req TimelineRequest) (*Timeline, error) {
	sel, loc, kept, all, err := r.selectSessions(&req.Filter, req.Location)
	if err != nil {
		return nil, err
	}
	subs := subagentCounts(all)
	out := &Timeline{Kind: KindTimeline, Generation: r.Ref(), Selection: *sel, Location: zoneName(loc),
		Days: []TimelineDay{}}
	days := map[string]*TimelineDay{}
	day := func(date string) *TimelineDay {
		if d := days[date]; d != nil {
			return d
		}
		d := &TimelineDay{Date: date, Sessions: []TimelineSession{}, Commits: []TimelineCommit{}}
		days[date] = d
		return d
	}
	for _, f := range kept {
		if f.started.IsZero() {
			continue // no time: on no day
		}
		d := day(f.started.In(loc).Format(time.DateOnly))
		d.Sessions = append(d.Sessions, TimelineSession{SessionRow: f.row(subs[f.entry.Session]),
			Files: append([]string{}, f.digest.Files...)})
		d.Events += f.entry.Events
		out.Sessions++
		out.Events += f.entry.Events
	}
	for _, c := range req.Commits {
		if (sel.Since != nil && c.Time.Before(*sel.Since)) || (sel.Until != nil && !c.Time.Before(*sel.Until)) {
			continue
		}
		c.Time = c.Time.UTC()
		d := day(c.Time.In(loc).Format(time.DateOnly))
		d.Commits = append(d.Commits, c)
		out.Commits++
	}
	for _, d := range days {
		slices.SortFunc(d.Sessions, func(a, b TimelineSession) int {
			if c := a.Started.Compare(*b.Started); c != 0 {
				return c
			}
			return strings.Compare(a.CtxSessionID, b.CtxSessionID)
		})
		slices.SortFunc(d.Commits, func(a, b TimelineCommit) int {
			if c := a.Time.Compare(b.Time); c != 0 {
				return c
			}
			return strings.Compare(a.Commit, b.Commit)
		})
		out.Days = append(out.Days, *d)
	}
	slices.SortFunc(out.Days, func(a, b TimelineDay) int { return strings.Compare(b.Date, a.Date) })
	return out, nil
}

// zoneName names a location: its IANA name, or for the process's local
// zone without one its abbreviation and offset now (CET +01:00).
func zoneName(loc *time.Location) string {
	if n := loc.String(); n != "Local" {
		return n
	}
	return time.Now().In(loc).Format("MST -07:00")
}
