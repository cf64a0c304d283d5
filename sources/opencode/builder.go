package opencode

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"ctx/core"
)

// SessionRow is one session: a row of the session table or a legacy
// session file.
type SessionRow struct {
	ID        string
	ParentID  string
	Directory string
	Title     string
	Agent     string // session.agent, when the column exists
	Model     string // session.model JSON text, when the column exists
	Created   int64  // epoch milliseconds
}

// MessageRow is one message; Data is message.data or a legacy message file.
type MessageRow struct {
	ID        string
	SessionID string
	Created   int64 // epoch milliseconds, used when the data has no time.created
	Data      []byte
}

// PartRow is one part; Data is part.data or a legacy part file.
type PartRow struct {
	ID        string
	MessageID string
	Data      []byte
}

// Rows is a set of OpenCode records, as read from a database or a storage
// directory.
type Rows struct {
	Sessions []SessionRow
	Messages []MessageRow
	Parts    []PartRow
}

// ParseRows builds the sessions of rows; f names the source in problems. It
// is pure, the fuzzing entry point. Messages are matched to sessions and
// parts to messages by id, whatever their order in rows.
func ParseRows(rows Rows, f core.SourceFile) core.ParseResult {
	b := newBuilder(f)
	for _, s := range rows.Sessions {
		b.addSession(s)
	}
	for _, m := range rows.Messages {
		b.addMessage(m)
	}
	for _, p := range rows.Parts {
		b.addPart(p)
	}
	return b.finish()
}

// builder accumulates sessions, messages and parts and turns them into
// events. Sessions must be added before their messages, messages before
// their parts; parts are converted as they arrive so raw data is not kept.
type builder struct {
	f        core.SourceFile
	sessions map[string]*sessionAcc
	order    []*sessionAcc
	parents  map[string]string // session id → parent id, for root resolution
	messages map[string]*messageAcc
	skipped  map[string]bool // messages already reported as bad
	problems []core.Problem
	at       string // the file being added, for problems (legacy storage)
}

type sessionAcc struct {
	row  SessionRow
	msgs []*messageAcc
}

type messageAcc struct {
	id      string
	created int64
	data    messageData
	role    core.Role
	ts      time.Time
	items   []item
}

// item is what one part contributes: events, or text for the message event.
type item struct {
	partID string
	text   string // a text part's text (its message event is built later)
	ts     time.Time
	events []core.Event
}

func newBuilder(f core.SourceFile) *builder {
	return &builder{f: f, sessions: map[string]*sessionAcc{}, parents: map[string]string{},
		messages: map[string]*messageAcc{}, skipped: map[string]bool{}}
}

func (b *builder) problem(code, path string) {
	if path == "" {
		path = b.at
	}
	if path == "" {
		path = b.f.Path
	}
	b.problems = append(b.problems, core.Problem{Code: code, Provider: ProviderID, Path: path})
}

// addParent records a session known only for root resolution.
func (b *builder) addParent(id, parent string) {
	if _, ok := b.parents[id]; !ok {
		b.parents[id] = parent
	}
}

func (b *builder) addSession(row SessionRow) {
	if row.ID == "" {
		b.problem(core.ProblemInvalidRecord, "")
		return
	}
	if _, dup := b.sessions[row.ID]; dup {
		return
	}
	s := &sessionAcc{row: row}
	b.sessions[row.ID] = s
	b.order = append(b.order, s)
	b.parents[row.ID] = row.ParentID
}

// decodeObject decodes a JSON object into v; it reports invalid_json or
// invalid_record when it cannot.
func decodeObject(data []byte, v any) (string, bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		if json.Valid(data) {
			return core.ProblemInvalidRecord, false
		}
		return core.ProblemInvalidJSON, false
	}
	if err := json.Unmarshal(data, v); err != nil {
		if json.Valid(data) {
			return core.ProblemInvalidRecord, false
		}
		return core.ProblemInvalidJSON, false
	}
	return "", true
}

func (b *builder) addMessage(row MessageRow) {
	s := b.sessions[row.SessionID]
	if row.ID == "" {
		b.problem(core.ProblemInvalidRecord, "")
		return
	}
	if _, dup := b.messages[row.ID]; dup {
		return
	}
	if s == nil {
		b.problem(ProblemOrphanMessage, "")
		b.skipped[row.ID] = true
		return
	}
	m := &messageAcc{id: row.ID}
	if code, ok := decodeObject(row.Data, &m.data); !ok {
		b.problem(code, "")
		b.skipped[row.ID] = true
		return
	}
	m.created = int64(m.data.Time.Created)
	if m.created <= 0 {
		m.created = row.Created
	}
	m.ts = millis(m.created).Time()
	switch m.data.Role {
	case "user":
		m.role = core.RoleUser
	case "assistant":
		m.role = core.RoleAssistant
	default:
		b.problem(core.ProblemUnknownRecord, "")
		m.role = core.RoleSystem
	}
	b.messages[row.ID] = m
	s.msgs = append(s.msgs, m)
}

func (b *builder) addPart(row PartRow) {
	m := b.messages[row.MessageID]
	if m == nil {
		if !b.skipped[row.MessageID] {
			b.problem(ProblemOrphanPart, "")
		}
		return
	}
	var p partData
	if code, ok := decodeObject(row.Data, &p); !ok {
		b.problem(code, "")
		return
	}
	it, known := convertPart(row.ID, &p, m)
	if !known {
		b.problem(core.ProblemUnknownRecord, "")
	}
	m.items = append(m.items, it)
}

// finish assembles every session, ordered by creation time and id.
func (b *builder) finish() core.ParseResult {
	sort.SliceStable(b.order, func(i, j int) bool {
		a, c := b.order[i].row, b.order[j].row
		if a.Created != c.Created {
			return a.Created < c.Created
		}
		return a.ID < c.ID
	})
	res := core.ParseResult{Problems: b.problems}
	for _, s := range b.order {
		res.Sessions = append(res.Sessions, b.session(s))
	}
	return res
}

func (b *builder) session(s *sessionAcc) core.ParsedSession {
	sort.SliceStable(s.msgs, func(i, j int) bool {
		if s.msgs[i].created != s.msgs[j].created {
			return s.msgs[i].created < s.msgs[j].created
		}
		return s.msgs[i].id < s.msgs[j].id
	})
	ps := core.ParsedSession{Session: core.Session{Provider: ProviderID, NativeID: s.row.ID,
		Workspace: s.row.Directory, Title: s.row.Title}}
	agent := s.row.Agent
	for _, m := range s.msgs {
		ps.Events = append(ps.Events, m.events()...)
		if ps.Session.Workspace == "" {
			ps.Session.Workspace = m.data.Path.Cwd
		}
		if m.role == core.RoleAssistant && ps.Session.Model == "" {
			ps.Session.Model = m.data.ModelID
		}
		if m.role == core.RoleAssistant && agent == "" {
			agent = m.data.Agent
		}
	}
	if ps.Session.Model == "" {
		var sm sessionModel
		if json.Unmarshal([]byte(s.row.Model), &sm) == nil {
			ps.Session.Model = sm.ID
		}
	}
	if s.row.ParentID != "" {
		ps.ParentNativeID = s.row.ParentID
		ps.RootNativeID = b.root(s.row.ParentID)
		ps.Session.AgentType = agent
	}
	ps.Finalize()
	return ps
}

// root follows the parent chain from id to its top within the store; a
// parent that is not in the store ends the chain. Cycles stop the walk.
func (b *builder) root(id string) string {
	seen := map[string]bool{}
	for !seen[id] {
		seen[id] = true
		parent := b.parents[id]
		if parent == "" {
			return id
		}
		if _, known := b.parents[parent]; !known {
			return parent
		}
		id = parent
	}
	return id
}

// events returns the message's events in part order; the message text
// (every non-blank text part joined) is one event at its first text part.
// Events without a time of their own take the latest time seen before
// them in the message, starting at its creation.
func (m *messageAcc) events() []core.Event {
	sort.SliceStable(m.items, func(i, j int) bool { return m.items[i].partID < m.items[j].partID })
	var texts []string
	first := -1
	for i, it := range m.items {
		if strings.TrimSpace(it.text) != "" {
			if first < 0 {
				first = i
			}
			texts = append(texts, strings.TrimSpace(it.text))
		}
	}
	var out []core.Event
	for i, it := range m.items {
		if i == first {
			out = append(out, m.messageEvent(strings.Join(texts, "\n\n"), it.ts))
		}
		out = append(out, it.events...)
	}
	if ev, ok := m.summaryEvent(); ok {
		out = append(out, ev)
	}
	if e := m.data.Error; e != nil {
		text := strings.TrimSpace(e.Name + ": " + e.Data.Message)
		out = append(out, core.Event{Role: m.role, Type: core.TypeOther, Native: "error", Text: text,
			IsError: true, Timestamp: m.data.Time.Completed.Time(), Key: m.id + "/error"})
	}
	cur := m.ts
	for i := range out {
		if out[i].Timestamp.IsZero() {
			out[i].Timestamp = cur
		} else if out[i].Timestamp.After(cur) {
			cur = out[i].Timestamp
		}
	}
	return out
}

// messageEvent is the prompt or answer of the message; an assistant
// message flagged summary is a compaction summary.
func (m *messageAcc) messageEvent(text string, ts time.Time) core.Event {
	ev := core.Event{Role: m.role, Type: core.TypeMessage, Text: text, Timestamp: ts, Key: m.id}
	if m.role == core.RoleAssistant {
		ev.Model = m.data.ModelID
		if string(bytes.TrimSpace(m.data.Summary)) == "true" || m.data.Mode == "compaction" {
			ev.Type = core.TypeSummary
		}
	}
	return ev
}

// summaryEvent is the generated summary body older versions wrote into a
// user message.
func (m *messageAcc) summaryEvent() (core.Event, bool) {
	if m.role != core.RoleUser || len(m.data.Summary) == 0 || m.data.Summary[0] != '{' {
		return core.Event{}, false
	}
	var s userSummary
	if json.Unmarshal(m.data.Summary, &s) != nil || strings.TrimSpace(s.Body) == "" {
		return core.Event{}, false
	}
	return core.Event{Role: core.RoleSystem, Type: core.TypeSummary, Text: s.Body, Key: m.id + "/summary"}, true
}
