package query

import "ctx/core"

// machineSessions turns a filter's machines into the sessions of the
// pinned tree that came from them (within its session filters), since
// neither the index nor the vectors know where a session was recorded. It
// reports false when no session passes: there is nothing to search.
func (r *Reader) machineSessions(f *core.Filter) (bool, error) {
	if len(f.Machines) == 0 {
		return true, nil
	}
	t, err := r.Tree()
	if err != nil {
		return false, err
	}
	m := f.Compile()
	var ids []core.SessionID
	for _, e := range t.Sessions {
		if m.Machine(e.Machine) && m.SessionID(e.Session, e.Root) {
			ids = append(ids, e.Session)
		}
	}
	f.Sessions, f.RootSessions, f.Machines = ids, nil, nil
	return len(ids) > 0, nil
}
