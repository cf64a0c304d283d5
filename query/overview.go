package query

import (
	"time"

	"ctx/core"
)

// KindSessionOverview is the kind of SessionOverview.
const KindSessionOverview = "session_overview"

// SessionOverview is what a parent session's view shows beside its
// transcript: its row, the subagent sessions it started (each with its
// row) and where its context was compacted (kind "session_overview").
type SessionOverview struct {
	Kind        string           `json:"kind"`
	Generation  GenerationRef    `json:"generation"`
	Session     SessionRow       `json:"session"`
	Subagents   []SessionRow     `json:"subagents"`
	Compactions []CompactionMark `json:"compactions"`
}

// CompactionMark is one compaction of a session's context: the event
// that marks it.
type CompactionMark struct {
	CtxEventID string    `json:"ctx_event_id"`
	Ordinal    int       `json:"ordinal"`
	Timestamp  time.Time `json:"timestamp"`
}

// SessionOverview builds the overview of session id: its subagents (those
// whose parent it is, oldest first) from the tree, and its compactions
// from its events (read only when its digest counts any).
func (r *Reader) SessionOverview(id core.SessionID) (*SessionOverview, error) {
	facts, err := r.facts()
	if err != nil {
		return nil, err
	}
	subs := subagentCounts(facts)
	var self *fact
	out := &SessionOverview{Kind: KindSessionOverview, Generation: r.Ref(), Subagents: []SessionRow{},
		Compactions: []CompactionMark{}}
	var children []*fact
	for i := range facts {
		f := &facts[i]
		switch {
		case f.entry.Session == id:
			self = f
		case f.parent() == id:
			children = append(children, f)
		}
	}
	if self == nil {
		if _, err := r.Session(id); err != nil {
			return nil, err // not found, or forgotten
		}
		return nil, Errorf(CodeNotFound, "no session with that id in generation %d", r.gen.Number)
	}
	out.Session = self.row(subs[id])
	sortFacts(children, SortStarted, true)
	for _, f := range children {
		out.Subagents = append(out.Subagents, f.row(subs[f.entry.Session]))
	}
	if self.digest.Compactions == 0 {
		return out, nil
	}
	so, err := r.loadSession(self.entry)
	if err != nil {
		return nil, err
	}
	err = r.walkEvents(so, func(e *core.Event) bool {
		if e.Type == core.TypeCompaction {
			out.Compactions = append(out.Compactions, CompactionMark{CtxEventID: e.ID.String(), Ordinal: e.Ordinal,
				Timestamp: e.Timestamp.UTC()})
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
