package app

import (
	"context"

	"ctx/core"
	"ctx/query"
)

// Transcript is the one session_transcript read model: ctx show session
// --format json, the MCP show_session page and the SDK. Pagination is set
// on the page path (the MCP contract of spec 000), Completion on the
// complete path.
type Transcript struct {
	Kind       string               `json:"kind"`
	Generation query.GenerationRef  `json:"generation"`
	Session    core.Session         `json:"session"`
	Mode       string               `json:"mode"`
	Events     []core.Event         `json:"events"`
	Skipped    []query.SkippedEvent `json:"skipped,omitempty"` // page path: events alone over MaxBytes, stepped past
	Pagination *query.Pagination    `json:"pagination,omitempty"`
	Completion *query.Completion    `json:"completion,omitempty"`
}

// ShowSessionOptions selects how ShowSession reads a session. With Limit
// and Cursor both unset it returns the complete stream, optionally cut at
// MaxEvents; with either set it returns one page of the MCP contract,
// optionally shortened to MaxBytes of JSON.
type ShowSessionOptions struct {
	Mode      string // "transcript" (default: messages and summaries) or "log" (every event)
	Limit     int    // page path: selected events per page, 1..4096 (200 when only Cursor is set)
	Cursor    string // page path: the previous page's Pagination.NextCursor
	From      int    // page path without a cursor: the first ordinal of the page (the viewer's jump to an event)
	MaxEvents int    // complete path: stop after this many events (0: all)
	MaxBytes  int    // page path: end the page before its JSON exceeds this (0: no budget); an event alone over it is skipped
}

// Paged reports whether the options select the page path.
func (o ShowSessionOptions) Paged() bool { return o.Limit != 0 || o.Cursor != "" }

// Pinned is the read models of one pinned generation: what a front end
// uses when it reads the same generation more than once in one answer
// (the MCP server fitting a page into its response budget).
type Pinned struct{ r *query.Reader }

// Pinned pins the active generation for fn.
func (a *App) Pinned(ctx context.Context, fn func(*Pinned) error) error {
	return a.read(ctx, func(r *query.Reader) error { return fn(&Pinned{r: r}) })
}

// pinnedValue is Pinned for a read that answers one value.
func pinnedValue[T any](ctx context.Context, a *App, fn func(*Pinned) (T, error)) (T, error) {
	var out T
	err := a.Pinned(ctx, func(p *Pinned) (err error) {
		out, err = fn(p)
		return err
	})
	return out, err
}

// Generation is the pinned generation's reference.
func (p *Pinned) Generation() query.GenerationRef { return p.r.Ref() }

// ShowSession reads a session's events selected by mode.
func (a *App) ShowSession(ctx context.Context, id string, opts ShowSessionOptions) (*Transcript, error) {
	return pinnedValue(ctx, a, func(p *Pinned) (*Transcript, error) { return p.ShowSession(ctx, id, opts) })
}

// ShowSession reads a session's events selected by mode.
func (p *Pinned) ShowSession(ctx context.Context, id string, opts ShowSessionOptions) (*Transcript, error) {
	paged := opts.Paged()
	if paged && opts.MaxEvents != 0 {
		return nil, query.Errorf(query.CodeInvalidRequest, "max events applies to the complete stream: use limit and cursor to page")
	}
	if !paged && opts.MaxBytes != 0 {
		return nil, query.Errorf(query.CodeInvalidRequest, "max bytes applies to pages: set a limit")
	}
	if paged {
		pg, err := p.r.ShowSessionPage(query.ShowSessionPageRequest{ID: id, Mode: opts.Mode, Limit: opts.Limit,
			Cursor: opts.Cursor, From: opts.From, MaxBytes: opts.MaxBytes})
		if err != nil {
			return nil, err
		}
		return &Transcript{Kind: pg.Kind, Generation: pg.Generation, Session: pg.Session, Mode: pg.Mode,
			Events: pg.Events, Skipped: pg.Skipped, Pagination: &pg.Pagination}, nil
	}
	t := &Transcript{Kind: query.KindSessionTranscript, Events: []core.Event{}}
	done, err := p.StreamSession(ctx, query.ShowSessionRequest{ID: id, Mode: opts.Mode, MaxEvents: opts.MaxEvents},
		func(s *query.SessionInfo) error {
			t.Generation, t.Session = s.Generation, s.Session
			return nil
		}, func(e *core.Event) error {
			t.Events = append(t.Events, *e)
			return nil
		})
	if err != nil {
		return nil, err
	}
	t.Mode, t.Completion = done.Mode, done
	return t, nil
}

// StreamSession streams a session's events selected by mode, after its
// header, without holding them (ctx show session --format jsonl and text).
func (a *App) StreamSession(ctx context.Context, req query.ShowSessionRequest, header func(*query.SessionInfo) error,
	emit func(*core.Event) error) (*query.Completion, error) {
	return pinnedValue(ctx, a, func(p *Pinned) (*query.Completion, error) { return p.StreamSession(ctx, req, header, emit) })
}

// StreamSession is App.StreamSession on the pinned generation.
func (p *Pinned) StreamSession(ctx context.Context, req query.ShowSessionRequest, header func(*query.SessionInfo) error,
	emit func(*core.Event) error) (*query.Completion, error) {
	return p.r.ShowSession(req, header, func(e *core.Event) error {
		if err := emit(e); err != nil {
			return err
		}
		return ctx.Err()
	})
}

// EventView is an event with its neighbours (ctx show event, MCP
// show_event).
type EventView = query.EventView

// ShowEvent returns an event with up to before events preceding it and
// after events following it in its session.
func (a *App) ShowEvent(ctx context.Context, id string, before, after int) (*EventView, error) {
	if before < 0 || after < 0 || before > query.MaxWindow || after > query.MaxWindow {
		return nil, query.Errorf(query.CodeInvalidRequest, "before, after and window must be between 0 and %d", query.MaxWindow)
	}
	return readValue(ctx, a, func(r *query.Reader) (*EventView, error) { return r.ShowEvent(id, before, after) })
}

// ListRequest selects the events of ListEvents.
type ListRequest = query.ListRequest

// EventRangePage is one page of ListEvents.
type EventRangePage = query.EventRangePage

// ListEvents returns one page of events (ctx list events, MCP
// query_events). Continue with the page's NextCursor and the same request.
func (a *App) ListEvents(ctx context.Context, req ListRequest) (*EventRangePage, error) {
	return pinnedValue(ctx, a, func(p *Pinned) (*EventRangePage, error) { return p.ListEvents(ctx, req) })
}

// ListEvents is App.ListEvents on the pinned generation.
func (p *Pinned) ListEvents(ctx context.Context, req ListRequest) (*EventRangePage, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return p.r.ListEvents(ctx, req)
}

// StreamEvents reads every event the request selects from one pinned
// generation, page after page of the largest size, and hands each page to
// emit; the last page carries the usage of the whole stream and limit 0
// (the unbounded stream).
func (a *App) StreamEvents(ctx context.Context, req ListRequest, emit func(page *EventRangePage, last bool) error) error {
	return a.Pinned(ctx, func(p *Pinned) error {
		req.Limit, req.Cursor = query.MaxPageLimit, ""
		var total query.PageUsage
		for {
			page, err := p.ListEvents(ctx, req)
			if err != nil {
				return err
			}
			total.Returned += page.Usage.Returned
			total.Bytes += page.Usage.Bytes
			if page.NextCursor == "" {
				page.Usage, page.Selection.Limit = total, 0
				return emit(page, true)
			}
			if err := emit(page, false); err != nil {
				return err
			}
			req.Cursor = page.NextCursor
		}
	})
}
