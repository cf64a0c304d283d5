package ui

import (
	"net/http"
	"net/url"
	"strconv"

	"ctx/app"
	"ctx/core"
	"ctx/query"
)

// sessionPageSize is the number of events one page (and each fragment
// the page appends while scrolling) shows: the first screen never waits
// for the rest of a long session.
const sessionPageSize = 200

// sessionData is the session page.
type sessionData struct {
	Session  core.Session
	Mode     string
	Events   []*eventView
	From     int
	Earlier  string // link to the page before, when From > 0
	More     string // link to the next events, when there are more
	ModeLink map[string]string
	Jump     string
	Extras   *sessionExtras // resume and subagents (whole pages only)
}

func (s *Server) session(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	id := r.PathValue("id")
	mode := q.Get("mode")
	if mode == "" {
		mode = query.ModeTranscript
	}
	from, err := intParam(q, "from", 0)
	if err != nil {
		return err
	}
	at, err := intParam(q, "at", -1)
	if err != nil {
		return err
	}
	if at >= 0 && !q.Has("from") {
		from = max(0, at-3) // a few events of context above the target
	}
	page, err := s.app.ShowSession(r.Context(), id, app.ShowSessionOptions{Mode: mode, Limit: sessionPageSize, From: from})
	if err != nil {
		return err
	}
	gen := page.Generation
	d := &sessionData{Session: page.Session, Mode: page.Mode, Events: viewEvents(page.Events, at), From: from,
		ModeLink: map[string]string{}}
	if wantsExtras(r) {
		if d.Extras, err = s.extras(r.Context(), &d.Session); err != nil {
			return err
		}
	}
	base := "/session/" + page.Session.ID.String()
	for _, m := range []string{query.ModeTranscript, query.ModeLog} {
		d.ModeLink[m] = base + "?" + url.Values{"mode": {m}}.Encode()
	}
	if from > 0 {
		d.Earlier = base + "?" + url.Values{"mode": {mode}, "from": {strconv.Itoa(max(0, from-sessionPageSize))}}.Encode()
	}
	if page.Pagination.HasMore && len(page.Events) > 0 {
		next := page.Events[len(page.Events)-1].Ordinal + 1
		d.More = base + "?" + url.Values{"mode": {mode}, "from": {strconv.Itoa(next)}}.Encode()
	}
	title := page.Session.Title
	if title == "" {
		title = page.Session.Provider + " session"
	}
	return s.render(w, r, http.StatusOK, "session", pageData{Title: oneLine(title), Nav: "sessions", Gen: &gen, Data: d})
}

// event opens an event (by path or ?id=, the jump form) in its session.
func (s *Server) event(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if id == "" {
		id = r.URL.Query().Get("id")
	}
	v, err := s.app.ShowEvent(r.Context(), id, 0, 0)
	if err != nil {
		return err
	}
	http.Redirect(w, r, eventLink(v.Session.ID.String(), v.Event.ID.String(), string(v.Event.Type), v.Event.Ordinal), http.StatusFound)
	return nil
}

// eventLink is the URL of an event inside its session page: the mode that
// shows it, started a little above it, scrolled to it.
func eventLink(session, event, eventType string, ordinal int) string {
	mode := query.ModeLog
	if query.InMode(query.ModeTranscript, &core.Event{Type: core.EventType(eventType)}) {
		mode = query.ModeTranscript
	}
	return "/session/" + url.PathEscape(session) + "?" + url.Values{"mode": {mode}, "at": {strconv.Itoa(ordinal)}}.Encode() +
		"#" + url.PathEscape(event)
}

// raw serves an event's whole text as text/plain (what the page clips).
func (s *Server) raw(w http.ResponseWriter, r *http.Request) {
	v, err := s.app.ShowEvent(r.Context(), r.PathValue("id"), 0, 0)
	if err != nil {
		s.errorPage(w, r, err)
		return
	}
	text := v.Event.Text
	if text == "" {
		text = query.SearchText(&v.Event)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	_, _ = w.Write([]byte(text))
}

func intParam(q url.Values, name string, def int) (int, error) {
	s := q.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1<<31 {
		return 0, badRequest(name + " must be a whole number")
	}
	return n, nil
}
