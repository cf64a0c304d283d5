package app

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"ctx/budget"
	"ctx/core"
	"ctx/query"
	"ctx/sources/reported"
	"ctx/threads"
)

// Surface is the door and client that last wrote to a thread.
type Surface struct {
	Door    string `json:"door"`
	Harness string `json:"harness"`
	Client  string `json:"client"`
}

// ThreadRow is one thread of list_threads.
type ThreadRow struct {
	Name        string    `json:"name"`
	Sessions    int       `json:"sessions"`
	LastActive  time.Time `json:"last_active"`
	LastSurface Surface   `json:"last_surface"`
	Created     time.Time `json:"created"`
}

// ThreadList is the answer of list_threads.
type ThreadList struct {
	Threads []ThreadRow `json:"threads"`
}

// member is one session of a thread.
type member struct {
	at       time.Time
	surface  Surface
	reported *reported.Session // a reported session
	imported core.SessionID    // or an imported one
	added    time.Time         // when it was added
}

// threadView is a thread with its members, newest last.
type threadView struct {
	t       *threads.Thread
	members []member
}

func (v *threadView) last() (time.Time, Surface) {
	at, s := v.t.Created, Surface{}
	for _, m := range v.members {
		if !m.at.Before(at) {
			at, s = m.at, m.surface
		}
	}
	return at, s
}

// views reads every thread with its members, most recently active first.
func (h *Handoff) views() ([]*threadView, error) {
	ts, err := h.threads.Threads()
	if err != nil {
		return nil, err
	}
	recs, err := h.inbox.Records()
	if err != nil {
		return nil, err
	}
	by := map[string]*threadView{}
	var out []*threadView
	for _, t := range ts {
		v := &threadView{t: t}
		by[threads.Key(t.Name)] = v
		out = append(out, v)
		for _, a := range t.Added {
			v.members = append(v.members, member{at: a.At, added: a.At, imported: a.Session,
				surface: Surface{Door: a.Door, Harness: "imported", Client: "ctx"}})
		}
	}
	for _, s := range reported.Group(recs) {
		last := s.Latest()
		v := by[threads.Key(last.Report.Thread)]
		if v == nil || s.Removed != nil || last.Report.Thread == "" {
			continue
		}
		v.members = append(v.members, member{at: last.ReceivedAt, reported: s, surface: Surface{Door: last.Provenance.Door,
			Harness: last.Provenance.Harness, Client: last.Provenance.Client.Name}})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := out[i].last()
		b, _ := out[j].last()
		return a.After(b)
	})
	return out, nil
}

// ListThreads answers list_threads.
func (h *Handoff) ListThreads() (*ThreadList, error) {
	vs, err := h.views()
	if err != nil {
		return nil, err
	}
	out := &ThreadList{Threads: []ThreadRow{}}
	for _, v := range vs {
		at, s := v.last()
		out.Threads = append(out.Threads, ThreadRow{Name: v.t.Name, Sessions: len(v.members), LastActive: at,
			LastSurface: s, Created: v.t.Created})
	}
	return out, nil
}

// HandoffPackage is the newest handoff of a thread, with who saved it.
type HandoffPackage struct {
	ReportedID   string              `json:"reported_id"`
	CtxSessionID string              `json:"ctx_session_id"`
	At           time.Time           `json:"at"`
	From         reported.Provenance `json:"from"`
	Package      *reported.Report    `json:"package"`
}

// Continuation is the answer of continue_thread.
type Continuation struct {
	Thread      string          `json:"thread"`
	Match       string          `json:"match"` // exact, prefix, fuzzy, most_recent, ambiguous
	Assumed     bool            `json:"assumed"`
	Note        string          `json:"note"`
	Candidates  []string        `json:"candidates"`
	Untrusted   string          `json:"untrusted"`
	TokenBudget int             `json:"token_budget"`
	TokensUsed  int             `json:"tokens_used"`
	Sessions    int             `json:"sessions"`
	Omitted     int             `json:"omitted"`
	Handoff     *HandoffPackage `json:"handoff"`
	Entries     []threads.Entry `json:"entries"`
}

// ErrBudget is returned for a budget outside 1..ThreadMaxBudget.
var ErrBudget = errors.New("token budget out of range")

// ContinueThread answers continue_thread: the thread name means (fuzzy),
// or the most recent thread, merged within the budget (0: the default).
func (h *Handoff) ContinueThread(name string, tokens int) (*Continuation, error) {
	set := h.opts.Settings
	if tokens == 0 {
		tokens = set.ThreadBudget
	}
	if tokens < 256 || tokens > set.ThreadMaxBudget {
		return nil, fmt.Errorf("%w: between 256 and %d", ErrBudget, set.ThreadMaxBudget)
	}
	vs, err := h.views()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.t.Name
	}
	out := &Continuation{Untrusted: threads.Notice, TokenBudget: tokens, Entries: []threads.Entry{}, Candidates: []string{}}
	got, how, err := threads.Match(name, names)
	var amb *threads.AmbiguousError
	if errors.As(err, &amb) {
		out.Match, out.Candidates = "ambiguous", amb.Candidates
		out.Note = fmt.Sprintf("%q could mean %d threads: ask the user which one, then call continue_thread with its name",
			name, len(amb.Candidates))
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	out.Thread, out.Match = got, how
	switch how {
	case threads.MatchMostRecent:
		out.Assumed = true
		out.Note = fmt.Sprintf("no thread was named: assumed the most recently active thread %q", got)
	case threads.MatchExact:
		out.Note = fmt.Sprintf("thread %q", got)
	default:
		out.Assumed = true
		out.Note = fmt.Sprintf("%q matched thread %q (%s match): tell the user which thread was resumed", name, got, how)
	}
	var view *threadView
	for _, v := range vs {
		if v.t.Name == got {
			view = v
		}
	}
	entries, pkg, err := h.entries(view)
	if err != nil {
		return nil, err
	}
	m := threads.Merge(entries, tokens)
	out.Entries, out.TokensUsed, out.Omitted, out.Sessions = m.Entries, m.TokensUsed, m.Omitted, len(entries)
	out.Handoff = pkg
	if out.Entries == nil {
		out.Entries = []threads.Entry{}
	}
	return out, nil
}

// entries turns a thread's members into merge entries, and finds the newest
// handoff package.
func (h *Handoff) entries(v *threadView) ([]threads.Entry, *HandoffPackage, error) {
	var out []threads.Entry
	var pkg *HandoffPackage
	var imported []member
	for _, m := range v.members {
		if m.reported == nil {
			imported = append(imported, m)
			continue
		}
		last := m.reported.Latest()
		e := threads.Entry{At: last.ReceivedAt, Harness: last.Provenance.Harness, Door: last.Provenance.Door,
			Client: last.Provenance.Client.Name, SessionID: reported.SessionID(last.ID).String(), ReportedID: last.ID,
			Revision: last.Revision, Source: "reported",
			Summary: reported.TitleOf(last.Report) + ": " + firstChars(last.Report.Summary, 600),
			Detail:  reported.Heading(last) + "\n\n" + reported.Render(last.Report)}
		out = append(out, e)
		if last.Report.Handoff && (pkg == nil || !last.ReceivedAt.Before(pkg.At)) {
			pkg = &HandoffPackage{ReportedID: last.ID, CtxSessionID: e.SessionID, At: last.ReceivedAt,
				From: last.Provenance, Package: last.Report}
		}
	}
	if len(imported) == 0 {
		return out, pkg, nil
	}
	err := h.withReader(func(r *query.Reader) error {
		for _, m := range imported {
			e, err := importedEntry(r, m)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	return out, pkg, err
}

// importedEntry reads an imported session of the thread: its summary is the
// title and the last summary or message, its detail the transcript's last
// messages.
func importedEntry(r *query.Reader, m member) (threads.Entry, error) {
	e := threads.Entry{At: m.added, SessionID: m.imported.String(), Source: "imported", Door: "import", Harness: "unknown"}
	if r == nil {
		e.Summary = "an imported session not in the store yet: run ctx import"
		return e, nil
	}
	so, err := r.Session(m.imported)
	if err != nil {
		if query.CodeOf(err) == query.CodeNotFound {
			e.Summary = "an imported session no longer in the store"
			return e, nil
		}
		return e, err
	}
	s := so.Session
	e.Harness, e.Client, e.At = s.Provider, s.Provider, s.Ended
	events, err := core.LoadEvents(r.Objects(), so)
	if err != nil {
		return e, err
	}
	var lines []string
	last := ""
	for _, ev := range events {
		if ev.Type != core.TypeMessage && ev.Type != core.TypeSummary || strings.TrimSpace(ev.Text) == "" {
			continue
		}
		lines = append(lines, fmt.Sprintf("[%s %s] %s", ev.Timestamp.Format("2006-01-02 15:04"), ev.Role, ev.Text))
		last = ev.Text
	}
	head := fmt.Sprintf("Imported %s session %s (%d events) in %s", s.Provider, s.ID, s.EventCount, s.Workspace)
	e.Summary = head + ": " + firstChars(orString(s.Title, last), 600)
	e.Detail = head + "\n\n" + tail(strings.Join(lines, "\n"), 4000)
	return e, nil
}

// tail keeps the end of s within max tokens, where the latest work is.
func tail(s string, max int) string {
	if budget.Count(s) <= max {
		return s
	}
	rs := []rune(s)
	keep := max * 3
	if keep < len(rs) {
		rs = rs[len(rs)-keep:]
	}
	out, _, _ := budget.Cut(string(rs), max)
	return "…" + out
}

func firstChars(s string, n int) string {
	rs := []rune(strings.TrimSpace(s))
	if len(rs) <= n {
		return string(rs)
	}
	return string(rs[:n-1]) + "…"
}

func orString(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// AddToThread adds an imported session to a thread (created on first use).
func (h *Handoff) AddToThread(name, sessionArg, door string) (string, error) {
	id, err := core.ParseSessionID(strings.TrimSpace(sessionArg))
	if err != nil {
		return "", query.Errorf(query.CodeInvalidRequest, "%s is not a session id (ses_ followed by 32 hex digits)", sessionArg)
	}
	found := false
	if err := h.withReader(func(r *query.Reader) error { found = inTree(r, id); return nil }); err != nil {
		return "", err
	}
	if !found {
		return "", query.Errorf(query.CodeNotFound, "no session %s in the store", id)
	}
	canon, _, err := h.threads.Ensure(name, h.now())
	if err != nil {
		return "", query.Errorf(query.CodeInvalidRequest, "%v", err)
	}
	return canon, h.threads.Add(canon, id, door, h.now())
}
