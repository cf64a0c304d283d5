package query

import (
	"time"

	"ctx/core"
)

// fact is what the session browser, the timeline and stats know of one
// session: its tree entry and digest, without its events.
type fact struct {
	ti      int // tree index
	entry   core.TreeEntry
	digest  *core.Digest
	started time.Time
	ended   time.Time
	ws      string
}

func (f *fact) root() core.SessionID {
	if f.entry.Root.IsZero() {
		return f.entry.Session
	}
	return f.entry.Root
}

// parent is the session's parent: the digest's, else its root when it is a
// subagent (zero for a primary session).
func (f *fact) parent() core.SessionID {
	if !f.digest.Parent.IsZero() {
		return f.digest.Parent
	}
	if f.digest.Subagent {
		return f.root()
	}
	return core.SessionID{}
}

// facts returns the facts of every session of the pinned generation, in
// tree order. Entries of trees written before the digest existed are
// summarized from their events (slow, once per Reader); the next publish
// stores their digests.
func (r *Reader) facts() ([]fact, error) {
	r.factsOnce.Do(func() { r.factList, r.factsErr = r.loadFacts() })
	return r.factList, r.factsErr
}

func (r *Reader) loadFacts() ([]fact, error) {
	tree, err := r.Tree()
	if err != nil {
		return nil, err
	}
	out := make([]fact, len(tree.Sessions))
	for i, e := range tree.Sessions {
		f := fact{ti: i, entry: e, digest: e.Digest, started: e.Started, ended: e.Ended, ws: e.Workspace}
		if f.digest == nil || (f.started.IsZero() && e.Events > 0) {
			if err := r.completeFact(&f); err != nil {
				return nil, err
			}
		}
		out[i] = f
	}
	return out, nil
}

// completeFact fills what an old tree entry lacks from the session object.
func (r *Reader) completeFact(f *fact) error {
	so, err := r.loadSession(f.entry)
	if err != nil {
		return err
	}
	s := &so.Session
	f.started, f.ended, f.ws = s.Started, s.Ended, s.Workspace
	if f.digest != nil {
		return nil
	}
	b := core.NewDigestBuilder(s)
	if err := r.walkEvents(so, func(e *core.Event) bool { b.Add(e); return true }); err != nil {
		return err
	}
	f.digest = b.Digest()
	return nil
}
