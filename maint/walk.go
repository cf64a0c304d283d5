package maint

import (
	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// reach adds to the walk's seen set every object a generation reaches
// (itself, its tree, session objects, chunks, cursors, the pieces of the
// tree and cursors, tombstones and the chunk lists of its shards), each
// read at most once per walk. Objects that cannot be read (missing,
// corrupt) are reported through bad and the walk goes on where it can.
func (w *walker) reach(gen objects.ID) error {
	if !w.first(gen) {
		return nil
	}
	g, err := refs.Load(w.s, gen)
	if err != nil {
		return w.report(gen, err)
	}
	lists := map[objects.ID]bool{}
	for _, sh := range g.Shards {
		w.shards[sh.Name] = true
		if sh.Chunks != nil {
			lists[*sh.Chunks] = true
		}
	}
	for _, id := range g.Reachable() {
		if id == g.Tree || lists[id] {
			continue // walked below: the tree piece by piece, the shards' lists once each
		}
		if err := w.blob(id); err != nil {
			return err
		}
	}
	for _, sh := range g.Shards {
		if sh.Chunks != nil && w.first(*sh.Chunks) {
			if err := w.indexed(*sh.Chunks); err != nil {
				return err
			}
		}
	}
	if !w.first(g.Tree) {
		return nil
	}
	pieces, err := w.trees.Tree(g.Tree, func(_ objects.ID, sessions []core.TreeEntry) error {
		for _, e := range sessions {
			if err := w.session(e.Object); err != nil {
				return err
			}
		}
		return nil
	})
	for _, id := range pieces {
		w.first(id)
	}
	if err != nil {
		return w.report(g.Tree, err)
	}
	return nil
}

// walker is one walk over the objects of a store's kept generations: the
// store, the objects seen so far, the tree pieces read so far and where
// unreadable objects are reported.
type walker struct {
	s     *objects.Store
	seen  map[objects.ID]bool
	bad   func(objects.ID, error)
	trees *core.TreeWalk
	// shards are the index shards the generations walked list.
	shards map[string]bool
	// check reads every object reached, chunks too, to find the damaged
	// (verify); gc only needs to know which objects are reached, and
	// reads none of those that name no other.
	check  bool
	leaves []objects.ID // reached and not read yet (checkLeaves)
}

func newWalker(s *objects.Store, bad func(objects.ID, error), check bool) *walker {
	return &walker{s: s, seen: map[objects.ID]bool{}, bad: bad, trees: core.NewTreeWalk(s), check: check, shards: map[string]bool{}}
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
	for _, c := range ic.Chunks {
		w.leaf(c.Chunk)
	}
	return nil
}

func (w *walker) session(id objects.ID) error {
	if !w.first(id) {
		return nil
	}
	so, err := core.LoadSession(w.s, id)
	if err != nil {
		return w.report(id, err)
	}
	for _, c := range so.Chunks {
		w.leaf(c.ID)
	}
	return nil
}

// leaf keeps an object that names no other (a chunk); when the walk
// checks, checkLeaves reads it later.
func (w *walker) leaf(id objects.ID) {
	if w.first(id) && w.check {
		w.leaves = append(w.leaves, id)
	}
}

// checkLeaves reads the leaves the walk kept, on every core (nearly all of
// a store's bytes are its chunks: 3.9 s of verify's 4.2 at a million
// events on one), and reports the unreadable ones in the order they were
// reached.
func (w *walker) checkLeaves() error {
	errs := make([]error, len(w.leaves))
	w.s.GetEach(w.leaves, func(i int, _ []byte, err error) { errs[i] = err })
	for i, err := range errs {
		if err != nil {
			if err := w.report(w.leaves[i], err); err != nil {
				return err
			}
		}
	}
	w.leaves = nil
	return nil
}

// blob keeps an object whose contents name no further objects
// (tombstones) but its pieces (a cursor set), read the first time it is
// reached.
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
	for _, p := range pieces {
		if err := w.blob(p); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) report(id objects.ID, err error) error {
	if w.bad == nil {
		return err
	}
	w.bad(id, err)
	return nil
}
