package app

import (
	"context"
	"time"

	"ctx/blame"
	"ctx/core"
	"ctx/query"
)

type (
	// Timeline is the sessions and noted commits of a window day by day
	// (kind "timeline").
	Timeline = query.Timeline
	// TimelineDay is one day with activity.
	TimelineDay = query.TimelineDay
	// TimelineCommit is a commit whose ctx note cites agent sessions.
	TimelineCommit = query.TimelineCommit
	// Stats is the usage of the selected sessions (kind "stats").
	Stats = query.Stats
	// StatsRow is the usage of a set of sessions.
	StatsRow = query.StatsRow
	// FileStats is one of the files the selected sessions edited most.
	FileStats = query.FileStats
	// StatsRequest selects the sessions stats count and their period.
	StatsRequest = query.StatsRequest
)

// Stats periods.
const (
	PeriodDay  = query.PeriodDay
	PeriodWeek = query.PeriodWeek
)

// TimelineRequest selects a timeline: the sessions of the filter, and the
// commits whose ctx notes cite sessions, read from Repo (a directory in a
// git repository). With Repo empty the commits come from the working
// directory's repository when it is one (none is no commits, not an
// error); NoCommits leaves git alone. Location decides where a day begins
// (nil: UTC).
type TimelineRequest struct {
	Filter    core.Filter // a session filter (SessionsRequest.Filter)
	Repo      string
	NoCommits bool
	Location  *time.Location
}

// Timeline builds the timeline of the request.
func (a *App) Timeline(ctx context.Context, req TimelineRequest) (*Timeline, error) {
	commits, err := notedCommits(ctx, req)
	if err != nil {
		return nil, err
	}
	var out *Timeline
	err = a.read(ctx, func(r *query.Reader) (err error) {
		out, err = r.Timeline(query.TimelineRequest{Filter: req.Filter, Commits: commits,
			Location: req.Location})
		return err
	})
	return out, err
}

// notedCommits reads the noted commits of the request's repository.
func notedCommits(ctx context.Context, req TimelineRequest) ([]TimelineCommit, error) {
	if req.NoCommits {
		return nil, nil
	}
	dir, explicit := req.Repo, req.Repo != ""
	if !explicit {
		dir = "."
	}
	repo, err := blame.OpenRepo(ctx, dir)
	if err != nil {
		if explicit {
			return nil, query.Errorf(query.CodeInvalidRequest, "repo: %v", err)
		}
		return nil, nil
	}
	return blame.NotedCommits(ctx, repo, req.Filter.Since, req.Filter.Until)
}

// Stats counts the selected sessions per agent, period and model.
func (a *App) Stats(ctx context.Context, req StatsRequest) (*Stats, error) {
	return readValue(ctx, a, func(r *query.Reader) (*Stats, error) { return r.Stats(req) })
}
