package blame

import (
	"strings"
	"time"
	"unicode/utf8"

	"ctx/core"
	"ctx/query"
)

// Evidence is one event cited for a line, resolved through the pinned
// generation. InStore is false when the event is no longer in the store;
// the ids are kept and Timestamp and Excerpt are then empty.
type Evidence struct {
	CtxSessionID    string     `json:"ctx_session_id"`
	CtxEventID      string     `json:"ctx_event_id,omitempty"`
	Provider        string     `json:"provider"`
	NativeSessionID string     `json:"native_session_id"`
	Match           string     `json:"match"`
	Timestamp       *time.Time `json:"timestamp"`
	Excerpt         string     `json:"excerpt"`
	InStore         bool       `json:"in_store"`
}

// Resolver resolves event ids through one pinned generation, caching each.
// A nil reader (nothing imported) resolves nothing. An event is looked up
// in the session its record names (one session object and its chunks,
// read once per session), without opening the search index; only an event
// not found there falls back to the index.
type Resolver struct {
	rd       *query.Reader
	cache    map[string]resolved
	sessions map[string]map[string]*core.Event // session id → its events by id; nil when not in the store
}

type resolved struct {
	ts      time.Time
	excerpt string
	ok      bool
}

// NewResolver wraps a pinned reader; rd may be nil.
func NewResolver(rd *query.Reader) *Resolver {
	return &Resolver{rd: rd, cache: map[string]resolved{}, sessions: map[string]map[string]*core.Event{}}
}

// Evidence lists the evidence of one record, one entry per event.
func (rs *Resolver) Evidence(r *Record) []Evidence {
	base := Evidence{CtxSessionID: r.CtxSessionID, Provider: r.Provider, NativeSessionID: r.NativeSessionID, Match: r.Match}
	if len(r.CtxEventIDs) == 0 {
		base.InStore = rs.rd != nil
		return []Evidence{base}
	}
	out := make([]Evidence, 0, len(r.CtxEventIDs))
	for _, id := range r.CtxEventIDs {
		e := base
		e.CtxEventID = id
		if v := rs.lookup(r.CtxSessionID, id); v.ok {
			ts := v.ts
			e.Timestamp, e.Excerpt, e.InStore = &ts, v.excerpt, true
		}
		out = append(out, e)
	}
	return out
}

func (rs *Resolver) lookup(session, id string) resolved {
	if v, ok := rs.cache[id]; ok || rs.rd == nil {
		return v
	}
	var v resolved
	if e := rs.sessionEvents(session)[id]; e != nil {
		v = resolved{ts: e.Timestamp.UTC(), excerpt: excerpt(e), ok: true}
	} else if view, err := rs.rd.ShowEvent(id, 0, 0); err == nil {
		v = resolved{ts: view.Event.Timestamp.UTC(), excerpt: excerpt(&view.Event), ok: true}
	}
	rs.cache[id] = v
	return v
}

// Prefetch reads the events of sessions ahead of Evidence.
func (rs *Resolver) Prefetch(sessions []string) {
	if rs.rd == nil {
		return
	}
	for _, s := range sessions {
		rs.sessionEvents(s)
	}
}

// sessionEvents reads the events of a session of the pinned generation
// once; nil when the session is not there.
func (rs *Resolver) sessionEvents(session string) map[string]*core.Event {
	if m, ok := rs.sessions[session]; ok {
		return m
	}
	var m map[string]*core.Event
	if id, err := core.ParseSessionID(session); err == nil {
		if so, err := rs.rd.Session(id); err == nil {
			if evs, err := core.LoadEvents(rs.rd.Objects(), so); err == nil {
				m = make(map[string]*core.Event, len(evs))
				for i := range evs {
					m[evs[i].ID.String()] = &evs[i]
				}
			}
		}
	}
	rs.sessions[session] = m
	return m
}

// excerpt is the tool and file of an edit with its first written line, or
// the start of the event's text.
func excerpt(e *core.Event) string {
	for _, f := range e.Files {
		if lines := writtenLines(&f); len(lines) > 0 {
			first := ""
			for _, l := range lines {
				if l != "" {
					first = l
					break
				}
			}
			return clip(strings.TrimSpace(e.Tool+" "+f.Path)+": "+first, 160)
		}
	}
	return clip(strings.Join(strings.Fields(e.Text), " "), 160)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
