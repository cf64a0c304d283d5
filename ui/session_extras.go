package ui

import (
	"context"
	"net/http"

	"ctx/app"
	"ctx/core"
)

// sessionExtras is what a session page shows beside its events: how to
// resume it, and the subagents it started.
type sessionExtras struct {
	Resume    *app.Resume
	Subagents []sessionRow
}

// extras reads the resume command and the direct subagents of s. A
// session whose resume cannot be built still opens: the page says why.
func (s *Server) extras(ctx context.Context, sess *core.Session) (*sessionExtras, error) {
	x := &sessionExtras{}
	res, err := s.app.Resume(ctx, sess.ID.String())
	if err != nil {
		return nil, err
	}
	x.Resume = res
	row, err := s.app.SessionRow(ctx, sess.ID.String())
	if err != nil || row.Subagents == 0 {
		return x, err
	}
	x.Subagents, err = s.subagents(ctx, sess, row.Subagents)
	return x, err
}

// maxSubagentPages bounds the list pages read to find a session's
// subagents.
const maxSubagentPages = 20

// subagents returns the direct subagents of sess (want of them): the rows
// of its agent and workspace whose parent it is, in the order they began.
func (s *Server) subagents(ctx context.Context, sess *core.Session, want int) ([]sessionRow, error) {
	req := app.SessionsRequest{Filter: core.Filter{Providers: []string{sess.Provider}, Workspace: sess.Workspace},
		Sort: app.SortStarted, Limit: app.MaxSessionsLimit}
	var out []sessionRow
	for range maxSubagentPages {
		list, err := s.app.ListSessions(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, row := range list.Sessions {
			if row.IsSubagent && row.ParentSessionID == sess.ID.String() {
				out = append(out, sessionRow{SessionRow: row, Title: oneLine(row.Title), Duration: duration(row.DurationSeconds)})
			}
		}
		if len(out) >= want || list.NextCursor == "" {
			break
		}
		req.Cursor = list.NextCursor
	}
	return out, nil
}

// wantsExtras reports whether a request renders the whole page (not a
// fragment the page appends while scrolling).
func wantsExtras(r *http.Request) bool { return r.URL.Query().Get("frag") != "1" }
