package ui

import (
	"net/http"
	"time"

	"ctx/app"
)

// timelineData is the timeline page: the filter form and the days of the
// timeline model, newest first.
type timelineData struct {
	*windowFilter
	Repo     string
	Timeline *app.Timeline
	Days     []timelineDay
}

// timelineDay is a day of the model with its untrusted titles made one
// clean line.
type timelineDay struct {
	app.TimelineDay
	Rows []timelineRow
}

type timelineRow struct {
	sessionRow
	Files []string
}

func (s *Server) timeline(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d := &timelineData{windowFilter: readWindow(q), Repo: q.Get("repo")}
	f, err := d.filter(time.Now())
	if err != nil {
		return err
	}
	req := app.TimelineRequest{Filter: f, Repo: d.Repo, Location: time.Local}
	if req.Repo == "" {
		req.Repo, d.Repo = s.opts.Repo, s.opts.Repo
	}
	req.NoCommits = req.Repo == ""
	if d.Timeline, err = s.app.Timeline(r.Context(), req); err != nil {
		return err
	}
	for _, day := range d.Timeline.Days {
		td := timelineDay{TimelineDay: day}
		for _, ts := range day.Sessions {
			td.Rows = append(td.Rows, timelineRow{sessionRow: sessionRow{SessionRow: ts.SessionRow, Title: oneLine(ts.Title),
				Duration: duration(ts.DurationSeconds)}, Files: ts.Files})
		}
		d.Days = append(d.Days, td)
	}
	gen := d.Timeline.Generation
	return s.render(w, r, http.StatusOK, "timeline", pageData{Title: "Timeline", Nav: "timeline", Gen: &gen, Data: d})
}
