package maint

import (
	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// reach adds to seen every object a generation reaches (itself, its tree,
// session objects, chunks, cursors, the pieces of the tree and cursors,
// tombstones and the chunk lists of its shards), each read once per seen
// set. Objects that cannot be read (missing, corrupt) are reported through
// bad and the walk goes on where it can.
func reach(s *objects.Store, gen objects.ID, seen map[objects.ID]bool, bad func(objects.ID, error)) error {
	w := &walker{s: s, seen: seen, bad: bad}
	if !w.first(gen) {
		return nil
	}
	g, err := refs.Load(s, gen)
	if err != nil {
		return w.report(gen, err)
	}
	for _, id := range g.Reachable() {
		if id == g.Tree {
			continue // the tree is walked below, session by session
		}
		if err := w.blob(id); err != nil {
			return err
		}
	}
	for _, sh := range g.Shards {
		if sh.Chunks == nil {
			continue
		}
		if err := w.indexed(*sh.Chunks); err != nil {
			return err
		}
	}
	if !w.first(g.Tree) {
		return nil
	}
	data, err := s.Get(g.Tree)
	if err != nil {
		return w.report(g.Tree, err)
	}
	pieces, err := core.Pieces(g.Tree, data)
	if err != nil {
		return w.report(g.Tree, err)
	}
	for _, id := range pieces {
		w.first(id) // read (and so checked) by LoadTree below
	}
	tree, err := core.LoadTree(s, g.Tree)
	if err != nil {
		return w.report(g.Tree, err)
	}
	for _, e := range tree.Sessions {
		if err := w.session(e.Object); err != nil {
			return err
		}
	}
	return nil
}

// walker is one walk of reach: the store, the objects seen so far and
// where unreadable ones are reported.
type walker struct {
	s    *objects.Store
	seen map[objects.ID]bool
	bad  func(objects.ID, error)
}

// first marks id seen and tells whether it had not been seen before.
func (w *walker) first(id objects.ID) bool {
	if w.seen[id] {
		return false
	}
	w.seen[id] = true
	return true
}

// indexed keeps the chunks a shard indexed: a shard document is a group
// of a chunk's events, read from the chunk at search time (and a merge
// re-indexes from the same chunks), so a chunk that a newer import
// replaced stays for as long as a kept shard still indexes it.
func (w *walker) indexed(list objects.ID) error {
	ic, err := core.LoadIndexedChunks(w.s, list)
	if err != nil {
		return w.report(list, err)
	}
	return eachBlob(w, ic.Chunks, func(c core.IndexedChunk) objects.ID { return c.Chunk })
}

func (w *walker) session(id objects.ID) error {
	if !w.first(id) {
		return nil
	}
	so, err := core.LoadSession(w.s, id)
	if err != nil {
		return w.report(id, err)
	}
	return eachBlob(w, so.Chunks, func(c core.ChunkRef) objects.ID { return c.ID })
}

// eachBlob keeps the object each element of list names.
func eachBlob[T any](w *walker, list []T, id func(T) objects.ID) error {
	for _, x := range list {
		if err := w.blob(id(x)); err != nil {
			return err
		}
	}
	return nil
}

// blob keeps an object whose contents name no further objects (a chunk,
// tombstones) but its pieces (a cursor set), read (and so checked) the
// first time it is reached.
func (w *walker) blob(id objects.ID) error {
	if !w.first(id) {
		return nil
	}
	data, err := w.s.Get(id)
	if err != nil {
		return w.report(id, err)
	}
	pieces, err := core.Pieces(id, data)
	if err != nil {
		return w.report(id, err)
	}
	return eachBlob(w, pieces, func(id objects.ID) objects.ID { return id })
}

func (w *walker) report(id objects.ID, err error) error {
	if w.bad == nil {
		return err
	}
	w.bad(id, err)
	return nil
}
