package semantic

import (
	"strings"
	"time"

	"ctx/core"
)

// Filter selects rows the way the lexical index's filters select events:
// every set field must match (AND), a list matches any of its values, and
// SourceRoots with SourceGroups form one OR set.
type Filter struct {
	Types        []core.EventType
	Roles        []core.Role
	Providers    []string
	Sessions     []core.SessionID
	SourceRoots  []string
	SourceGroups []string
	// Workspace matches the directory itself or any path under it.
	Workspace string
	// Files matches rows whose event touched one of these paths or base
	// names (exact, case-sensitive).
	Files []string
	// Since is inclusive, Until exclusive; an event without a timestamp
	// never passes a time bound.
	Since, Until time.Time
	PrimaryOnly  bool
}

// rowFilter is a Filter compiled for one set.
type rowFilter struct {
	set       *Set
	dead      []bool
	sessOK    []bool // nil: every session passes
	types     *[256]bool
	roles     *[256]bool
	since     int64
	until     int64
	timed     bool
	files     map[string]bool
	filesErr  error
	anyFilter bool
}

func (f *Filter) compile(s *Set, dead []bool) *rowFilter {
	rf := &rowFilter{set: s, dead: dead}
	if f == nil {
		return rf
	}
	if f.sessionLevel() {
		rf.sessOK = make([]bool, len(s.sessions))
		ws := workspaceMatcher(f.Workspace)
		for i := range s.sessions {
			rf.sessOK[i] = f.session(&s.sessions[i], ws)
		}
	}
	if len(f.Types) > 0 {
		rf.types = new([256]bool)
		for _, t := range f.Types {
			rf.types[typeCode(t)] = typeCode(t) != 0
		}
	}
	if len(f.Roles) > 0 {
		rf.roles = new([256]bool)
		for _, r := range f.Roles {
			rf.roles[roleCode(r)] = roleCode(r) != 0
		}
	}
	if !f.Since.IsZero() || !f.Until.IsZero() {
		rf.timed, rf.since, rf.until = true, noTime+1, int64(1<<63-1)
		if !f.Since.IsZero() {
			rf.since = f.Since.UnixNano()
		}
		if !f.Until.IsZero() {
			rf.until = f.Until.UnixNano()
		}
	}
	if len(f.Files) > 0 {
		rf.files = map[string]bool{}
		for _, p := range f.Files {
			rf.files[p] = true
		}
		_, rf.filesErr = s.filesOf(0) // decode the file table now, before goroutines share it
	}
	return rf
}

func (f *Filter) sessionLevel() bool {
	return len(f.Providers) > 0 || len(f.Sessions) > 0 || len(f.SourceRoots)+len(f.SourceGroups) > 0 ||
		strings.TrimSpace(f.Workspace) != "" || f.PrimaryOnly
}

// session reports whether a session passes the session-level filters.
func (f *Filter) session(m *sessionMeta, ws func(string) bool) bool {
	if f.PrimaryOnly && m.Subagent {
		return false
	}
	if len(f.Providers) > 0 && !contains(f.Providers, m.Provider) {
		return false
	}
	if len(f.Sessions) > 0 && !containsID(f.Sessions, m.ID) {
		return false
	}
	if len(f.SourceRoots)+len(f.SourceGroups) > 0 &&
		!(m.SourceRoot != "" && contains(f.SourceRoots, m.SourceRoot)) &&
		!(m.SourceGroup != "" && contains(f.SourceGroups, m.SourceGroup)) {
		return false
	}
	return ws == nil || ws(m.Workspace)
}

func containsID(ids []core.SessionID, id core.SessionID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// accept reports whether row i is live and passes the filter.
func (rf *rowFilter) accept(i int) bool {
	s := rf.set
	switch {
	case rf.dead != nil && rf.dead[i]:
		return false
	case rf.sessOK != nil && !rf.sessOK[s.sessionIndex(i)]:
		return false
	case rf.types != nil && !rf.types[s.typeCode(i)]:
		return false
	case rf.roles != nil && !rf.roles[s.roleCode(i)]:
		return false
	}
	if rf.timed {
		t := s.time(i)
		if t == noTime || t < rf.since || t >= rf.until {
			return false
		}
	}
	if rf.files != nil {
		terms, _ := s.filesOf(i)
		for _, t := range terms {
			if rf.files[t] {
				return true
			}
		}
		return false
	}
	return true
}

// workspaceMatcher matches a workspace and every path under it
// (core.WorkspaceScope); nil for an empty filter.
func workspaceMatcher(ws string) func(string) bool {
	if sc, ok := core.ParseWorkspaceScope(ws); ok {
		return sc.Contains
	}
	return nil
}
