package semantic

import (
	"ctx/core"
)

// rowFilter is a core.Filter compiled for one set: the session-level
// fields once per session, types and roles as tables of their codes.
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

func compileFilter(f *core.Filter, s *Set, dead []bool) *rowFilter {
	rf := &rowFilter{set: s, dead: dead}
	if f == nil {
		return rf
	}
	m := f.Compile()
	if f.SessionLevel() {
		rf.sessOK = make([]bool, len(s.sessions))
		for i := range s.sessions {
			rf.sessOK[i] = m.Session(s.sessions[i].facts())
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
	if f.Timed() {
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
