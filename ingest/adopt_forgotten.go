package ingest

import (
	"sort"

	"ctx/core"
)

// adoptForgotten applies other machines' tombstones before their sessions
// are adopted. Per session the entry changed last wins (the rule of
// core.ForgottenSet.Merge): a forget made on another machine removes the
// session here too, with its subagents, and keeps later imports and pulls
// from bringing it back; an undo made there restores it here, so that the
// next import reads its file again and the next pull may adopt a copy. It
// reports how many sessions it forgot and restored.
func (r *run) adoptForgotten(remotes []Remote, gen uint64) (forgot, restored int, err error) {
	incoming := core.ForgottenSet{}
	for _, rm := range remotes {
		theirs := core.ForgottenSet{}
		for id, e := range rm.Forgotten {
			if e.Machine == "" {
				e.Machine = rm.Machine // a session of the machine that shares it
			}
			theirs[id] = e
		}
		incoming.Merge(theirs)
	}
	ids := make([]core.SessionID, 0, len(incoming))
	for id := range incoming {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return string(ids[i][:]) < string(ids[j][:]) })
	for _, id := range ids {
		e := incoming[id]
		mine, had := r.st.forgotten[id]
		if had && !e.Supersedes(mine) {
			continue
		}
		e.Generation, e.Purged = gen, 0
		e.Source, e.Machine = r.localOrigin(id, e, mine, had)
		r.forgetChanged = true
		switch {
		case e.Undone:
			r.st.forgotten[id] = e
			if had && !mine.Undone {
				restored++
				if e.Source.Path != "" {
					delete(r.st.cursors, cursorKey(e.Source.Provider, e.Source.Path))
				}
			}
		case had && !mine.Undone:
			r.st.forgotten[id] = e // forgotten here already: the later act is kept
		default:
			if err := r.forgetOne(e); err != nil {
				return forgot, restored, err
			}
			forgot++
			for sid, te := range r.st.tree { // and the subagents this store holds of it
				if te.Root == id && sid != id {
					sub := r.entryOf(sid, ForgetSubagent, e.At)
					sub.Generation = gen
					if err := r.forgetOne(sub); err != nil {
						return forgot, restored, err
					}
					forgot++
				}
			}
		}
	}
	return forgot, restored, nil
}

// localOrigin is where a session an incoming tombstone names comes from
// as this store sees it: the source file and machine of its tree entry, else
// of the entry this store had, else what the other machine said (its path
// is never shared).
func (r *run) localOrigin(id core.SessionID, e, mine core.ForgottenEntry, had bool) (core.SourceRef, string) {
	if te, ok := r.st.tree[id]; ok {
		return core.SourceRef{Provider: te.Provider, Path: te.SourceKey}, te.Machine
	}
	if had {
		return mine.Source, mine.Machine
	}
	return e.Source, e.Machine
}
