package query

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// ShowSessionPageRequest is the MCP show_session input (spec 000).
type ShowSessionPageRequest struct {
	ID     string
	Mode   string // transcript (default) | log; applied before the limit
	Limit  int    // selected events per page: default 200, 1..4096
	Cursor string // the previous page's pagination.next_cursor
	// From, without a cursor, starts the page at this ordinal (the first
	// selected event at or after it), so a viewer can open a session at
	// any event; the page seeks to its chunk like a cursor does.
	From int
	// MaxBytes, when positive, ends the page early once its compact JSON
	// would exceed it (has_more stays true). An event that alone exceeds
	// it is listed in the page's Skipped, and the cursor steps past it.
	MaxBytes int
}

// SessionPage is one bounded page of a session (kind "session_transcript").
type SessionPage struct {
	Kind       string        `json:"kind"`
	Generation GenerationRef `json:"generation"`
	Session    core.Session  `json:"session"`
	Mode       string        `json:"mode"`
	Events     []core.Event  `json:"events"`
	// Skipped are the selected events of this page's range that alone
	// exceed the byte budget: the cursor steps past them.
	Skipped    []SkippedEvent `json:"skipped,omitempty"`
	Pagination Pagination     `json:"pagination"`
}

// Pagination is the paging state of a SessionPage: NextCursor is present
// exactly when HasMore is true, and HasMore is true only when another
// selected event remains.
type Pagination struct {
	Limit      int    `json:"limit"`
	Returned   int    `json:"returned"`
	HasMore    bool   `json:"has_more"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// KindSessionTranscript is the kind of SessionPage.
const KindSessionTranscript = "session_transcript"

// checkPage defaults and checks the size of a page of events: its limit
// and its byte budget.
func checkPage(limit *int, maxBytes int) error {
	if *limit == 0 {
		*limit = DefaultPageLimit
	}
	if *limit < 1 || *limit > MaxPageLimit {
		return Errorf(CodeInvalidRequest, "limit must be between 1 and %d", MaxPageLimit)
	}
	if maxBytes < 0 {
		return Errorf(CodeInvalidRequest, "max bytes must not be negative")
	}
	return nil
}

func (req *ShowSessionPageRequest) validate() error {
	if err := choose(&req.Mode, "mode", ModeTranscript, ModeLog); err != nil {
		return err
	}
	if err := checkPage(&req.Limit, req.MaxBytes); err != nil {
		return err
	}
	if req.From < 0 || (req.From > 0 && req.Cursor != "") {
		return Errorf(CodeInvalidRequest, "from must not be negative nor given with a cursor")
	}
	if strings.TrimSpace(req.ID) == "" {
		return Errorf(CodeInvalidRequest, "a session id is required")
	}
	return nil
}

// ShowSessionPage returns one page of a session's events selected by mode
// (spec 000's show_session contract). A cursor continues exactly after the
// previous page's last event and is bound to the session, the mode and the
// pinned generation; the page seeks to the chunk that holds the cursor's
// ordinal, so a deep page costs what the first one costs.
func (r *Reader) ShowSessionPage(req ShowSessionPageRequest) (*SessionPage, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	id, err := r.ResolveSession(req.ID)
	if err != nil {
		return nil, err
	}
	binding := bindingOf([]byte("show_session"), []byte(id.String()), []byte(req.Mode))
	key := r.cursorKey()
	from := req.From
	if req.Cursor != "" {
		c, err := checkCursor(req.Cursor, key, cursorShowSession, binding, r.id)
		if err != nil {
			return nil, err
		}
		from = int(min(c.Ordinal, 1<<40)) + 1
	}
	so, err := r.Session(id)
	if err != nil {
		return nil, err
	}
	if from > so.Session.EventCount {
		if req.Cursor == "" {
			return nil, Errorf(CodeInvalidRequest, "from is past the session's last event")
		}
		return nil, invalidCursor()
	}
	page := &SessionPage{Kind: KindSessionTranscript, Generation: r.Ref(), Session: so.Session, Mode: req.Mode,
		Events: []core.Event{}, Pagination: Pagination{Limit: req.Limit}}
	last, err := r.fillSessionPage(so, from, req, page)
	if err != nil {
		return nil, err
	}
	page.Pagination.Returned = len(page.Events)
	if page.Pagination.HasMore {
		page.Pagination.NextCursor = encodeCursor(cursorPos{Kind: cursorShowSession, Gen: r.id,
			Binding: binding, Ordinal: uint64(last)}, key)
	}
	return page, nil
}

// fillSessionPage adds the mode's events from ordinal from on, within the
// limit and byte budget, and sets HasMore by looking one selected event
// ahead. It returns the ordinal of the last event added.
func (r *Reader) fillSessionPage(so *core.SessionObject, from int, req ShowSessionPageRequest, page *SessionPage) (int, error) {
	probe := *page
	probe.Pagination = Pagination{Limit: req.Limit, Returned: req.Limit, NextCursor: strings.Repeat("x", cursorMaxEncoded)}
	head, err := json.Marshal(&probe)
	if err != nil {
		return 0, err
	}
	fill, last := newPageFill(len(head)+16, req.MaxBytes, ContentFull), -1
	for k := max(chunkAt(so.Chunks, from), 0); k < len(so.Chunks); k++ {
		c, err := r.loadChunk(so.Chunks[k].ID)
		if err != nil {
			return 0, err
		}
		for i := range c.Events {
			e := &c.Events[i]
			if e.Ordinal < from || !InMode(req.Mode, e) {
				continue
			}
			n := len(page.Events) + len(page.Skipped)
			if n == req.Limit {
				page.Pagination.HasMore = true
				return last, nil
			}
			size := 0
			if req.MaxBytes > 0 {
				b, err := json.Marshal(e)
				if err != nil {
					return 0, err
				}
				size = len(b)
			}
			v, sk, err := fill.offer(&so.Session, e, size, n == 0)
			switch {
			case err != nil:
				return 0, err
			case v == fillFull:
				page.Pagination.HasMore = true
				return last, nil
			case v == fillSkip:
				page.Skipped = append(page.Skipped, *sk)
			default:
				page.Events = append(page.Events, *e)
			}
			last = e.Ordinal
		}
	}
	return last, nil
}

// loadSession reads the session object of a tree entry.
func (r *Reader) loadSession(e core.TreeEntry) (*core.SessionObject, error) {
	so, err := core.LoadSession(r.store, e.Object)
	return so, wrapObjErr(err)
}

// loadChunk reads a chunk without caching it: paged reads walk through
// sessions once, and a long-lived reader must not keep them all.
func (r *Reader) loadChunk(id objects.ID) (*core.Chunk, error) {
	c, err := core.LoadChunk(r.store, id)
	return c, wrapObjErr(err)
}

// walkEvents hands the events of a session object to fn in order, chunk
// by chunk, read as loadChunk reads them; fn returning false ends the walk.
func (r *Reader) walkEvents(so *core.SessionObject, fn func(*core.Event) bool) error {
	return eachEvent(so, r.loadChunk, func(_ objects.ID, e *core.Event) (bool, error) { return fn(e), nil })
}

// eachEvent hands the events of a session object to fn in order, each with
// the chunk that holds it, chunk by chunk, read by load; fn returning false
// or an error ends the walk.
func eachEvent(so *core.SessionObject, load func(objects.ID) (*core.Chunk, error),
	fn func(chunk objects.ID, e *core.Event) (bool, error)) error {
	for _, ref := range so.Chunks {
		c, err := load(ref.ID)
		if err != nil {
			return err
		}
		for k := range c.Events {
			if more, err := fn(ref.ID, &c.Events[k]); !more || err != nil {
				return err
			}
		}
	}
	return nil
}

// frontiers caches each generation's import frontier by generation id.
var frontiers sync.Map

// freshness describes the pinned generation for a page.
func (r *Reader) freshness() Freshness {
	f := Freshness{GenerationNumber: r.gen.Number, GenerationCreated: r.gen.Created.UTC()}
	if active, err := refs.OpenExisting(r.home).Get(refs.Active); err == nil {
		f.Latest = active == r.id
	}
	v, ok := frontiers.Load(r.id)
	if !ok {
		var t time.Time
		if c, err := core.LoadCursors(r.store, r.gen.Cursors); err == nil {
			for _, fc := range c.Files {
				if !fc.Missing && fc.ModTime.After(t) {
					t = fc.ModTime.UTC()
				}
			}
		}
		v = t
		frontiers.Store(r.id, t)
	}
	if t := v.(time.Time); !t.IsZero() {
		f.Frontier = &t
	}
	return f
}
