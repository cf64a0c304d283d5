package blame

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unicode"

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
	// Forgotten says why a session is not in the store: the user forgot it
	// (ctx forget); the note that cites it stays.
	Forgotten bool `json:"forgotten,omitempty"`
	// Machine names the machine the session was pulled from (ctx sync);
	// absent for sessions imported here.
	Machine string `json:"machine,omitempty"`
	// SessionTitle is the session's title in the store (untrusted
	// transcript text); absent when the session is not in the store.
	SessionTitle string `json:"session_title,omitempty"`
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
	chunks  []core.ChunkRef   // nil when the session is not in the store
	machine string            // the machine it was pulled from, if any
	title   string            // its title
	next    int               // the next chunk to read
	events  map[string][]byte // event id → the event's JSON, decoded when cited
}

// NewResolver wraps a pinned reader; rd may be nil.
func NewResolver(rd *query.Reader) *Resolver {
	return &Resolver{rd: rd, cache: map[string]resolved{}, sessions: map[string]*sessionReader{}}
}

// Evidence lists the evidence of one record, one entry per event.
func (rs *Resolver) Evidence(r *Record) []Evidence {
	base := Evidence{CtxSessionID: r.CtxSessionID, Provider: r.Provider, NativeSessionID: r.NativeSessionID, Match: r.Match}
	if rs.rd != nil {
		base.SessionTitle = rs.session(r.CtxSessionID).title
	}
	if len(r.CtxEventIDs) == 0 {
		base.InStore = rs.rd != nil
		if base.InStore && rs.forgotten(r.CtxSessionID) {
			base.InStore, base.Forgotten = false, true
		}
		return []Evidence{base}
	}
	out := make([]Evidence, 0, len(r.CtxEventIDs))
	for _, id := range r.CtxEventIDs {
		e := base
		e.CtxEventID = id
		if v := rs.lookup(r.CtxSessionID, id); v.ok {
			ts := v.ts
			e.Timestamp, e.Excerpt, e.InStore = &ts, v.excerpt, true
			if sr := rs.sessions[r.CtxSessionID]; sr != nil {
				e.Machine = sr.machine
			}
		}
		out = append(out, e)
	}
	if !out[0].InStore && rs.forgotten(r.CtxSessionID) {
		for i := range out {
			out[i].Forgotten = !out[i].InStore
		}
	}
	return out
}

// forgotten reports whether the session a note cites was forgotten.
func (rs *Resolver) forgotten(session string) bool {
	id, err := core.ParseSessionID(session)
	return err == nil && rs.rd != nil && rs.rd.IsForgotten(id)
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
	sr := rs.session(session)
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

// session returns the reader of a session, loading it on first use (a
// session not in the pinned generation has no chunks).
func (rs *Resolver) session(session string) *sessionReader {
	sr := rs.sessions[session]
	if sr == nil {
		sr = &sessionReader{events: map[string][]byte{}}
		if sid, err := core.ParseSessionID(session); err == nil {
			if so, err := rs.rd.Session(sid); err == nil {
				sr.chunks, sr.machine, sr.title = so.Chunks, so.Session.Machine, so.Session.Title
			}
			if tree, err := rs.rd.Tree(); err == nil && sr.title == "" {
				if e, ok := tree.Find(sid); ok && e.Digest != nil {
					sr.title = e.Digest.Title // the agent's title, else the first prompt
				}
			}
		}
		rs.sessions[session] = sr
	}
	return sr
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

// resolve decodes a cited event's timestamp and excerpt, the same excerpt
// as excerpt of the decoded event, without unquoting what it does not
// show: a write's content up to its first non-blank line, a long text up
// to what the excerpt keeps.
func resolve(raw []byte) resolved {
	var e struct {
		Timestamp time.Time       `json:"timestamp"`
		Tool      string          `json:"tool"`
		Text      json.RawMessage `json:"text"`
		Files     []rawTouch      `json:"files"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return resolved{}
	}
	v := resolved{ts: e.Timestamp.UTC(), ok: true}
	for i := range e.Files {
		f := &e.Files[i]
		first, ok := f.firstWritten()
		if ok {
			v.excerpt = core.Clip(strings.TrimSpace(e.Tool+" "+f.Path)+": "+first, excerptLen)
			return v
		}
	}
	v.excerpt = textExcerpt(e.Text)
	return v
}

// rawTouch is a core.FileTouch whose texts are left encoded.
type rawTouch struct {
	Path    string          `json:"path"`
	Op      string          `json:"op"`
	OldText json.RawMessage `json:"old_text"`
	NewText json.RawMessage `json:"new_text"`
	Patch   json.RawMessage `json:"patch"`
	MovedTo string          `json:"moved_to"`
}

// firstWritten is the first non-empty line writtenLines gives for the
// touch, and whether it gives any line.
func (f *rawTouch) firstWritten() (string, bool) {
	if (f.Op == core.OpWrite || f.Op == core.OpCreate) && len(f.NewText) > 2 && f.NewText[0] == '"' {
		if first, ok := firstNonBlankLine(f.NewText); ok {
			return first, true // splitTrim of a non-empty content has lines
		}
	}
	t := core.FileTouch{Path: f.Path, Op: f.Op, MovedTo: f.MovedTo}
	for _, p := range []struct {
		raw json.RawMessage
		to  *string
	}{{f.OldText, &t.OldText}, {f.NewText, &t.NewText}, {f.Patch, &t.Patch}} {
		if len(p.raw) > 0 {
			_ = json.Unmarshal(p.raw, p.to)
		}
	}
	lines := writtenLines(&t)
	for _, l := range lines {
		if l != "" {
			return l, true
		}
	}
	return "", len(lines) > 0
}

// firstNonBlankLine unquotes the JSON string raw one line at a time up to
// its first line that is not blank, and returns it trimmed; false when
// there is none (or raw is not a plain JSON string).
func firstNonBlankLine(raw []byte) (string, bool) {
	body := raw[1 : len(raw)-1]
	start := 0
	for i := 0; i <= len(body); i++ {
		end := i == len(body)
		if !end && body[i] != '\\' {
			continue
		}
		if !end && (i+1 >= len(body) || body[i+1] != 'n') {
			i++ // another escape: skip its next byte
			continue
		}
		var line string
		if err := json.Unmarshal(append(append([]byte{'"'}, body[start:i]...), '"'), &line); err != nil {
			return "", false
		}
		if t := strings.TrimSpace(line); t != "" {
			return t, true
		}
		start = i + 2
		i++
	}
	return "", false
}

// textExcerpt is excerpt's text part, unquoting a long text only as far
// as the excerpt needs: a prefix whose complete words (all but its last,
// which the cut may have split) already pass the excerpt's length gives
// the same excerpt as the whole text.
func textExcerpt(raw json.RawMessage) string {
	for n := 512; n < len(raw); n *= 4 {
		var prefix string
		if json.Unmarshal(append(raw[:n:n], '"'), &prefix) != nil {
			continue // cut inside an escape: take more
		}
		if s, ok := completeWords(prefix, excerptLen); ok {
			return core.Clip(s, excerptLen)
		}
	}
	var text string
	_ = json.Unmarshal(raw, &text)
	return core.Clip(strings.Join(strings.Fields(text), " "), excerptLen)
}

// completeWords joins with single spaces the words of prefix that are
// surely whole (every word but the last), and reports whether they make
// more than n bytes.
func completeWords(prefix string, n int) (string, bool) {
	var b strings.Builder
	rest := prefix
	for {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			return "", false // the last word: the cut may have split it
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(rest[:end])
		if b.Len() > n {
			return b.String(), true
		}
		rest = rest[end:]
	}
}

// excerptLen is the length an excerpt is clipped to.
const excerptLen = 160

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
			return core.Clip(strings.TrimSpace(e.Tool+" "+f.Path)+": "+first, excerptLen)
		}
	}
	return core.Clip(strings.Join(strings.Fields(e.Text), " "), excerptLen)
}
