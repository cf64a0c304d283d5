package blame

import (
	"bytes"
	"encoding/json"
	"slices"
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
// in the session its record names, reading that session's chunks in order
// only as far as the events asked for, and decoding in full only the
// events cited; the search index is opened only for an event not found in
// its session.
type Resolver struct {
	rd       *query.Reader
	cache    map[string]resolved
	sessions map[string]*sessionReader
}

type resolved struct {
	ts      time.Time
	excerpt string
	ok      bool
}

// sessionReader reads one session's chunks on demand.
type sessionReader struct {
	chunks []core.ChunkRef   // nil when the session is not in the store
	next   int               // the next chunk to read
	events map[string][]byte // event id → the event's JSON, decoded when cited
}

// NewResolver wraps a pinned reader; rd may be nil.
func NewResolver(rd *query.Reader) *Resolver {
	return &Resolver{rd: rd, cache: map[string]resolved{}, sessions: map[string]*sessionReader{}}
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

// Prefetch resolves the events of records ahead of Evidence.
func (rs *Resolver) Prefetch(recs []*Record) {
	if rs.rd == nil {
		return
	}
	for _, r := range recs {
		for _, id := range r.CtxEventIDs {
			rs.lookup(r.CtxSessionID, id)
		}
	}
}

func (rs *Resolver) lookup(session, id string) resolved {
	if v, ok := rs.cache[id]; ok || rs.rd == nil {
		return v
	}
	var v resolved
	if raw := rs.find(session, id); raw != nil {
		v = resolve(raw)
	} else if view, err := rs.rd.ShowEvent(id, 0, 0); err == nil {
		v = resolved{ts: view.Event.Timestamp.UTC(), excerpt: excerpt(&view.Event), ok: true}
	}
	rs.cache[id] = v
	return v
}

// find reads the session's chunks until event id turns up; nil when the
// session or the event is not in the pinned generation.
func (rs *Resolver) find(session, id string) []byte {
	sr := rs.sessions[session]
	if sr == nil {
		sr = &sessionReader{events: map[string][]byte{}}
		if sid, err := core.ParseSessionID(session); err == nil {
			if so, err := rs.rd.Session(sid); err == nil {
				sr.chunks = so.Chunks
			}
		}
		rs.sessions[session] = sr
	}
	for {
		if e := sr.events[id]; e != nil {
			return e
		}
		if sr.next >= len(sr.chunks) {
			return nil
		}
		ref := sr.chunks[sr.next]
		sr.next++
		data, err := rs.rd.Objects().Get(ref.ID)
		if err != nil {
			sr.next = len(sr.chunks) // a damaged chunk: what it holds is not in the store
			continue
		}
		if !splitChunk(data, sr.events) {
			var c struct {
				Kind   string            `json:"kind"`
				Events []json.RawMessage `json:"events"`
			}
			if err := json.Unmarshal(data, &c); err != nil || c.Kind != core.KindChunk {
				continue
			}
			for _, raw := range c.Events {
				var e struct {
					ID string `json:"ctx_event_id"`
				}
				if json.Unmarshal(raw, &e) == nil {
					sr.events[e.ID] = raw
				}
			}
		}
	}
}

// Chunk objects as core writes them: the kind first, the events last,
// each event's id its first field.
var (
	chunkPrefix  = []byte(`{"kind":"` + core.KindChunk + `",`)
	eventsField  = []byte(`"events":[`)
	eventIDField = []byte(`{"ctx_event_id":"`)
)

// splitChunk indexes the events of a chunk by id without decoding them:
// one pass that finds each event object's bounds. It reports false when
// the chunk is not laid out as expected (the caller then decodes it).
func splitChunk(data []byte, into map[string][]byte) bool {
	if !bytes.HasPrefix(data, chunkPrefix) {
		return false
	}
	i := bytes.Index(data, eventsField)
	if i < 0 {
		return false
	}
	found := map[string][]byte{}
	for i += len(eventsField); i < len(data); i++ {
		switch data[i] {
		case ',':
			continue
		case ']':
			for id, raw := range found {
				into[id] = raw
			}
			return true
		case '{':
		default:
			return false
		}
		end := objectEnd(data, i)
		if end < 0 {
			return false
		}
		raw := data[i : end+1]
		rest, ok := bytes.CutPrefix(raw, eventIDField)
		q := bytes.IndexByte(rest, '"')
		if !ok || q < 0 {
			return false
		}
		found[string(rest[:q])] = raw
		i = end
	}
	return false
}

// objectEnd returns the index of the brace that closes the JSON object
// opening at data[start], -1 when it does not close.
func objectEnd(data []byte, start int) int {
	depth := 0
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// resolve decodes a cited event's timestamp and excerpt.
func resolve(raw []byte) resolved {
	var e struct {
		Timestamp time.Time        `json:"timestamp"`
		Tool      string           `json:"tool"`
		Text      json.RawMessage  `json:"text"`
		Files     []core.FileTouch `json:"files"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return resolved{}
	}
	ev := core.Event{Timestamp: e.Timestamp, Tool: e.Tool, Files: e.Files}
	if !slices.ContainsFunc(ev.Files, func(f core.FileTouch) bool { return len(writtenLines(&f)) > 0 }) {
		_ = json.Unmarshal(e.Text, &ev.Text) // the excerpt is the text's
	}
	return resolved{ts: ev.Timestamp.UTC(), excerpt: excerpt(&ev), ok: true}
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
