package semantic

import (
	"ctx/core"
	"ctx/objects"
)

// diff compares the generation's tree with the base generation's and
// returns the chunks to embed: every chunk of a new or changed session that
// no carried set covers. Chunks of changed or removed sessions that the new
// tree no longer names are marked dead in their sets. Of two trees in
// pieces only the pieces that differ are read (core.TreeChanges): after a
// daemon's pass, one or two of thirty.
func (b *build) diff() ([]chunkJob, error) {
	var base *objects.ID
	if b.baseGen != nil {
		base = &b.baseGen.Tree
	}
	was, now, err := core.TreeChanges(b.o.Objects, base, b.gen.Tree)
	if err != nil {
		return nil, err
	}
	old := make(map[core.SessionID]objects.ID, len(was))
	for _, e := range was {
		old[e.Session] = e.Object
	}
	var todo []chunkJob
	for _, e := range now {
		prev, had := old[e.Session]
		delete(old, e.Session)
		if had && prev == e.Object {
			continue
		}
		so, err := core.LoadSession(b.o.Objects, e.Object)
		if err != nil {
			return nil, err
		}
		now := make(map[objects.ID]bool, len(so.Chunks))
		for _, c := range so.Chunks {
			now[c.ID] = true
			if _, ok := b.covered[c.ID]; !ok {
				todo = append(todo, chunkJob{ref: c, session: &so.Session})
			}
		}
		if had {
			if err := b.kill(prev, now); err != nil {
				return nil, err
			}
		}
	}
	for _, prev := range old {
		if err := b.kill(prev, nil); err != nil {
			return nil, err
		}
	}
	return todo, nil
}

// kill marks dead the covered chunks of a previous session object that are
// not in keep.
func (b *build) kill(session objects.ID, keep map[objects.ID]bool) error {
	if len(b.covered) == 0 {
		return nil
	}
	so, err := core.LoadSession(b.o.Objects, session)
	if err != nil {
		return err
	}
	for _, c := range so.Chunks {
		if keep[c.ID] {
			continue
		}
		if l, ok := b.covered[c.ID]; ok {
			b.refs[l.set].Dead = append(b.refs[l.set].Dead, l.idx)
			delete(b.covered, c.ID)
		}
	}
	return nil
}
