package core

import (
	"slices"
	"strings"
	"time"
)

// Filter selects events and sessions: the one filter of search (lexical
// and vector), event listing, session listing, timelines and stats. It is
// typed: front ends parse their flags or request fields into it once, and
// every reader compiles it with Compile. Fields of different kinds combine
// by AND, the values of one field by OR, and SourceRoots with SourceGroups
// form one OR set. A zero Filter selects everything.
type Filter struct {
	Providers    []string
	Sessions     []SessionID // these sessions
	RootSessions []SessionID // the sessions of these root sessions (a primary and its subagents)
	SourceRoots  []string    // configured source root names
	SourceGroups []string    // configured source group names
	// Workspace selects sessions whose workspace is this directory or lies
	// under it (WorkspaceScope).
	Workspace string
	Types     []EventType
	Roles     []Role
	// Files selects events that touched one of these paths or file names
	// (exact, case-sensitive; a path's last element matches a file name).
	Files []string
	// Since is inclusive and Until exclusive; zero is unbounded. An event
	// without a timestamp never passes a time bound; a session passes when
	// it was active in the window.
	Since, Until time.Time
	// PrimaryOnly leaves subagent sessions out.
	PrimaryOnly bool
	// Machines selects sessions by the machine they were recorded on: a
	// machine id (as ctx sync status lists them) for sessions pulled from
	// it, LocalMachine for this store's own.
	Machines []string
}

// LocalMachine is the Machines value of this store's own sessions (those
// whose Machine is empty).
const LocalMachine = "local"

// SessionLevel reports whether the filter selects by session (provider,
// session, root, source, workspace or primary only).
func (f *Filter) SessionLevel() bool {
	return len(f.Providers)+len(f.Sessions)+len(f.RootSessions)+len(f.SourceRoots)+len(f.SourceGroups)+len(f.Machines) > 0 ||
		strings.TrimSpace(f.Workspace) != "" || f.PrimaryOnly
}

// Timed reports whether the filter has a time bound.
func (f *Filter) Timed() bool { return !f.Since.IsZero() || !f.Until.IsZero() }

// Match is a compiled Filter: the predicates every reader applies, so that
// the lexical index, the vectors and the listings select alike. A nil
// *Match matches everything.
type Match struct {
	f                      *Filter
	provs, srcRoots, files map[string]bool
	srcGroups, machines    map[string]bool
	sessions, roots        map[SessionID]bool
	types                  map[EventType]bool
	roles                  map[Role]bool
	ws                     WorkspaceScope
	hasWS                  bool
}

// Compile returns the filter's Match.
func (f *Filter) Compile() *Match {
	m := &Match{f: f, provs: setOf(f.Providers), srcRoots: setOf(f.SourceRoots), srcGroups: setOf(f.SourceGroups),
		files: setOf(f.Files), sessions: setOf(f.Sessions), roots: setOf(f.RootSessions),
		types: setOf(f.Types), roles: setOf(f.Roles), machines: setOf(f.Machines)}
	m.ws, m.hasWS = ParseWorkspaceScope(f.Workspace)
	return m
}

func setOf[T comparable](vs []T) map[T]bool {
	if len(vs) == 0 {
		return nil
	}
	m := make(map[T]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// SessionFacts is what the session-level predicates read of a session.
type SessionFacts struct {
	ID, Root                SessionID // Root is zero for a session that is its own root
	Provider                string
	Workspace               string
	SourceRoot, SourceGroup string
	Subagent                bool
	Machine                 string // "" for this store's own
}

// Session reports whether a session passes every session-level field.
func (m *Match) Session(s SessionFacts) bool {
	return m.Provider(s.Provider) && m.SessionID(s.ID, s.Root) && m.Source(s.SourceRoot, s.SourceGroup) &&
		m.Workspace(s.Workspace) && m.Primary(s.Subagent) && m.Machine(s.Machine)
}

// Machine reports whether the machine a session came from passes ("" is
// this store's own, selected by LocalMachine).
func (m *Match) Machine(origin string) bool {
	if m == nil || m.machines == nil {
		return true
	}
	if origin == "" {
		origin = LocalMachine
	}
	return m.machines[origin]
}

// Provider reports whether the provider passes.
func (m *Match) Provider(p string) bool { return m == nil || m.provs == nil || m.provs[p] }

// SessionID reports whether a session id (with its root, zero for a
// session that is its own root) passes the session and root filters.
func (m *Match) SessionID(id, root SessionID) bool {
	if m == nil {
		return true
	}
	if root.IsZero() {
		root = id
	}
	return (m.sessions == nil || m.sessions[id]) && (m.roots == nil || m.roots[root])
}

// Source reports whether a session's configured source root and group
// pass (one OR set; a session with neither passes only an empty set).
func (m *Match) Source(root, group string) bool {
	if m == nil || (m.srcRoots == nil && m.srcGroups == nil) {
		return true
	}
	return (root != "" && m.srcRoots[root]) || (group != "" && m.srcGroups[group])
}

// Workspace reports whether a workspace is the filter's or lies under it.
func (m *Match) Workspace(dir string) bool { return m == nil || !m.hasWS || m.ws.Contains(dir) }

// Primary reports whether a session passes PrimaryOnly.
func (m *Match) Primary(subagent bool) bool { return m == nil || !m.f.PrimaryOnly || !subagent }

// Span reports whether a session active from started to ended passes the
// time bounds; a session with no known start passes none.
func (m *Match) Span(started, ended time.Time) bool {
	if m == nil || !m.f.Timed() {
		return true
	}
	return !started.IsZero() && !ended.Before(m.f.Since) && (m.f.Until.IsZero() || started.Before(m.f.Until))
}

// Time reports whether an event's timestamp passes the time bounds.
func (m *Match) Time(t time.Time) bool {
	if m == nil || !m.f.Timed() {
		return true
	}
	return !t.IsZero() && !t.Before(m.f.Since) && (m.f.Until.IsZero() || t.Before(m.f.Until))
}

// Type reports whether an event type passes.
func (m *Match) Type(t EventType) bool { return m == nil || m.types == nil || m.types[t] }

// Role reports whether a role passes.
func (m *Match) Role(r Role) bool { return m == nil || m.roles == nil || m.roles[r] }

// HasFiles reports whether the filter selects by file.
func (m *Match) HasFiles() bool { return m != nil && m.files != nil }

// File reports whether a path passes the file filter: it or its last
// element is one of the filter's files.
func (m *Match) File(path string) bool {
	if m == nil || m.files == nil {
		return true
	}
	return path != "" && (m.files[path] || m.files[FileName(path)])
}

// Event reports whether an event passes the event-level fields: type,
// role, time and files (a moved file matches by either name).
func (m *Match) Event(e *Event) bool {
	if !m.Type(e.Type) || !m.Role(e.Role) || !m.Time(e.Timestamp) {
		return false
	}
	if !m.HasFiles() {
		return true
	}
	for _, f := range e.Files {
		if (f.Path != "" && m.File(f.Path)) || (f.MovedTo != "" && m.File(f.MovedTo)) {
			return true
		}
	}
	return false
}

// FileName is the last element of a slash or backslash separated path.
func FileName(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// FileTerms lists each touched path (and the new path of a move) with its
// file name, once each: what a file filter matches, as the lexical index
// and the vectors store it.
func FileTerms(files []FileTouch) []string {
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		for _, t := range []string{p, FileName(p)} {
			if t != "" && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	for _, f := range files {
		add(f.Path)
		add(f.MovedTo)
	}
	return out
}
