package maint

import (
	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// ForgottenCheck is what verify proves of the forgotten sessions: none is
// in the tree of a kept generation (Reachable lists those that are, and
// from how many generations), and no shard of the active generation holds
// their events (Indexed). Both empty once ctx gc ran after a forget.
type ForgottenCheck struct {
	Sessions  int            `json:"sessions"`
	Reachable map[string]int `json:"reachable"` // ctx_session_id → kept generations whose tree holds it
	Indexed   []string       `json:"indexed"`   // ctx_session_ids with events in a shard of the active generation
}

// Clean reports whether nothing of a forgotten session is left.
func (c *ForgottenCheck) Clean() bool { return len(c.Reachable) == 0 && len(c.Indexed) == 0 }

// checkForgotten looks for the active generation's forgotten sessions in
// every kept generation's tree and in the active generation's shards.
func checkForgotten(s *objects.Store, gens []objects.ID, active objects.ID) (*ForgottenCheck, error) {
	out := &ForgottenCheck{Reachable: map[string]int{}, Indexed: []string{}}
	if active.IsZero() {
		return out, nil
	}
	g, err := refs.Load(s, active)
	if err != nil {
		return nil, err
	}
	set, err := core.LoadForgotten(s, g.Forgotten)
	if err != nil {
		return nil, err
	}
	out.Sessions = len(set.Live())
	if out.Sessions == 0 {
		return out, nil
	}
	// The forgotten sessions of each tree piece (or whole tree), read once
	// for all the generations that share it.
	walk, held := core.NewTreeWalk(s), map[objects.ID][]core.SessionID{}
	for _, id := range gens {
		kg, err := refs.Load(s, id)
		if err != nil {
			continue // reported as damage by the walk
		}
		pieces, err := walk.Tree(kg.Tree, func(piece objects.ID, sessions []core.TreeEntry) error {
			var in []core.SessionID
			for _, e := range sessions {
				if set.Has(e.Session) {
					in = append(in, e.Session)
				}
			}
			held[piece] = in
			return nil
		})
		if err != nil {
			continue
		}
		if pieces == nil {
			pieces = []objects.ID{kg.Tree}
		}
		for _, p := range pieces {
			for _, sid := range held[p] {
				out.Reachable[sid.String()]++
			}
		}
	}
	indexed := map[core.SessionID]bool{}
	lists := map[objects.ID]bool{}
	for _, sh := range g.Shards {
		if sh.Chunks == nil || lists[*sh.Chunks] {
			continue
		}
		lists[*sh.Chunks] = true
		l, err := core.LoadIndexedChunks(s, *sh.Chunks)
		if err != nil {
			continue
		}
		for _, ic := range l.Chunks {
			if set.Has(ic.Session) && !indexed[ic.Session] {
				indexed[ic.Session] = true
				out.Indexed = append(out.Indexed, ic.Session.String())
			}
		}
	}
	return out, nil
}
