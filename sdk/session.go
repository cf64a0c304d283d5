package sdk

import (
	"context"

	"ctx/core"
	"ctx/query"
)

// ShowSessionOptions selects how ShowSession reads a session. With Limit
// and Cursor both unset it returns the complete stream (like the CLI),
// optionally cut at MaxEvents; with either set it returns one page of the
// MCP contract (spec 000), optionally shortened to MaxBytes of JSON.
type ShowSessionOptions struct {
	Mode      string // "transcript" (default: messages and summaries) or "log" (every event)
	Limit     int    // page path: selected events per page, 1..4096 (200 when only Cursor is set)
	Cursor    string // page path: the previous page's Pagination.NextCursor
	MaxEvents int    // complete path: stop after this many events (0: all)
	MaxBytes  int    // page path: end the page before its JSON exceeds this (0: no budget)
}

// Transcript is the session_transcript read model. Pagination is set on
// the page path, Completion on the complete path.
type Transcript struct {
	Kind       string        `json:"kind"`
	Generation GenerationRef `json:"generation"`
	Session    Session       `json:"session"`
	Mode       string        `json:"mode"`
	Events     []Event       `json:"events"`
	Pagination *Pagination   `json:"pagination,omitempty"`
	Completion *Completion   `json:"completion,omitempty"`
}

// ShowSession reads a session's events selected by mode.
func (c *Client) ShowSession(ctx context.Context, id string, opts ShowSessionOptions) (*Transcript, error) {
	paged := opts.Limit != 0 || opts.Cursor != ""
	if paged && opts.MaxEvents != 0 {
		return nil, query.Errorf(query.CodeInvalidRequest, "max events applies to the complete stream: use limit and cursor to page")
	}
	if !paged && opts.MaxBytes != 0 {
		return nil, query.Errorf(query.CodeInvalidRequest, "max bytes applies to pages: set a limit")
	}
	var out *Transcript
	err := c.read(ctx, func(r *query.Reader) error {
		var err error
		if paged {
			out, err = showPage(r, id, opts)
		} else {
			out, err = showComplete(ctx, r, id, opts)
		}
		return err
	})
	return out, err
}

func showPage(r *query.Reader, id string, opts ShowSessionOptions) (*Transcript, error) {
	p, err := r.ShowSessionPage(query.ShowSessionPageRequest{ID: id, Mode: opts.Mode, Limit: opts.Limit,
		Cursor: opts.Cursor, MaxBytes: opts.MaxBytes})
	if err != nil {
		return nil, err
	}
	return &Transcript{Kind: p.Kind, Generation: p.Generation, Session: p.Session, Mode: p.Mode,
		Events: p.Events, Pagination: &p.Pagination}, nil
}

func showComplete(ctx context.Context, r *query.Reader, id string, opts ShowSessionOptions) (*Transcript, error) {
	t := &Transcript{Kind: query.KindSessionTranscript, Events: []Event{}}
	done, err := r.ShowSession(query.ShowSessionRequest{ID: id, Mode: opts.Mode, MaxEvents: opts.MaxEvents},
		func(s *query.SessionInfo) error {
			t.Generation, t.Session = s.Generation, s.Session
			return nil
		}, func(e *core.Event) error {
			t.Events = append(t.Events, *e)
			return ctx.Err()
		})
	if err != nil {
		return nil, err
	}
	t.Mode, t.Completion = done.Mode, done
	return t, nil
}
