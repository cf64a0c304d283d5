package ui

import (
	"fmt"
	"net/http"
	"time"

	"ctx/query"
	"ctx/sources"
)

// sessionsData is the sessions page: the filters, one page of the list
// sessions model and the link to the next page.
type sessionsData struct {
	Provider, Workspace, File, Since, Until, Sort string
	PrimaryOnly, Stale                            bool
	Providers, Sorts                              []string
	List                                          *query.SessionList
	Rows                                          []sessionRow
	More                                          string
	Err                                           *Error
}

// sessionRow is a row with its untrusted title made one clean line.
type sessionRow struct {
	query.SessionRow
	Title    string
	Duration string
}

func (s *Server) sessions(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d := &sessionsData{Provider: q.Get("provider"), Workspace: q.Get("workspace"), File: q.Get("file"), Since: q.Get("since"),
		Until: q.Get("until"), Sort: q.Get("sort"), PrimaryOnly: q.Get("primary") == "1", Stale: q.Get("stale") == "1",
		Sorts: []string{"last_activity", "started", "events", "name"}}
	for _, p := range sources.Builtin() {
		d.Providers = append(d.Providers, p.Name())
	}
	req, err := sessionsRequest(d, q.Get("cursor"), s.sessionsLimit)
	if err == nil {
		d.List, err = s.app.ListSessions(r.Context(), req)
	}
	if query.CodeOf(err) == query.CodeCursorStale {
		// The store moved on since the list was loaded: start again from
		// the top, and say so.
		q.Del("cursor")
		q.Del("frag")
		q.Set("stale", "1")
		http.Redirect(w, r, "/?"+q.Encode(), http.StatusSeeOther)
		return nil
	}
	status := http.StatusOK
	var gen *query.GenerationRef
	if err != nil {
		d.Err = classify(err)
		status = d.Err.Status
	} else {
		gen = &d.List.Generation
		for _, row := range d.List.Sessions {
			d.Rows = append(d.Rows, sessionRow{SessionRow: row, Title: oneLine(row.Title), Duration: duration(row.DurationSeconds)})
		}
		if d.List.NextCursor != "" {
			q.Set("cursor", d.List.NextCursor)
			q.Del("frag")
			q.Del("stale")
			d.More = "/?" + q.Encode()
		}
	}
	return s.render(w, r, status, "sessions", pageData{Title: "Sessions", Nav: "sessions", Gen: gen, Data: d})
}

func sessionsRequest(d *sessionsData, cursor string, limit int) (query.SessionsRequest, error) {
	req := query.SessionsRequest{Sort: d.Sort, Cursor: cursor, Limit: limit}
	args := query.FilterArgs{Workspace: d.Workspace, PrimaryOnly: d.PrimaryOnly}
	if d.Provider != "" {
		args.Providers = []string{d.Provider}
	}
	if d.File != "" {
		args.Files = []string{d.File}
	}
	now := time.Now()
	var err error
	if args.Since, err = query.ParseTime(d.Since, now, "since"); err != nil {
		return req, err
	}
	if args.Until, err = query.ParseTime(d.Until, now, "until"); err != nil {
		return req, err
	}
	req.Filter, err = args.Parse()
	return req, err
}

// duration prints seconds as people write them: 45s, 12m, 3h 5m, 2d 4h.
func duration(sec int64) string {
	switch {
	case sec <= 0:
		return ""
	case sec < 60:
		return fmt.Sprintf("%ds", sec)
	case sec < 3600:
		return fmt.Sprintf("%dm", sec/60)
	case sec < 48*3600:
		return fmt.Sprintf("%dh %dm", sec/3600, sec%3600/60)
	}
	return fmt.Sprintf("%dd %dh", sec/86400, sec%86400/3600)
}
