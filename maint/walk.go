package maint

import (
	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// reach calls visit for every object a generation reaches (itself, its
// tree, session objects, chunks, cursors, tombstones and the chunk lists
// of its shards), each once per
// seen set. Objects that cannot be read (missing, corrupt) are reported
// through bad and the walk goes on where it can.
func reach(s *objects.Store, gen objects.ID, seen map[objects.ID]bool, bad func(objects.ID, error)) error {
	if seen[gen] {
		return nil
	}
	seen[gen] = true
	g, err := refs.Load(s, gen)
	if err != nil {
		return report(gen, err, bad)
	}
	for _, id := range g.Reachable() {
		if id == g.Tree || seen[id] {
			continue // the tree is walked below, session by session
		}
		seen[id] = true
		if _, err := s.Get(id); err != nil {
			if err := report(id, err, bad); err != nil {
				return err
			}
		}
	}
	for _, sh := range g.Shards {
		if sh.Chunks == nil {
			continue
		}
		if err := reachIndexed(s, *sh.Chunks, seen, bad); err != nil {
			return err
		}
	}
	if seen[g.Tree] {
		return nil
	}
	seen[g.Tree] = true
	tree, err := core.LoadTree(s, g.Tree)
	if err != nil {
		return report(g.Tree, err, bad)
	}
	for _, e := range tree.Sessions {
		if err := reachSession(s, e.Object, seen, bad); err != nil {
			return err
		}
	}
	return nil
}

// reachIndexed keeps the chunks a shard indexed: a shard document is a
// group of a chunk's events, read from the chunk at search time (and a
// merge re-indexes from the same chunks), so a chunk that a newer import
// replaced stays for as long as a kept shard still indexes it.
func reachIndexed(s *objects.Store, list objects.ID, seen map[objects.ID]bool, bad func(objects.ID, error)) error {
	ic, err := core.LoadIndexedChunks(s, list)
	if err != nil {
		return report(list, err, bad)
	}
	for _, c := range ic.Chunks {
		if err := reachChunk(s, c.Chunk, seen, bad); err != nil {
			return err
		}
	}
	return nil
}

func reachSession(s *objects.Store, id objects.ID, seen map[objects.ID]bool, bad func(objects.ID, error)) error {
	if seen[id] {
		return nil
	}
	seen[id] = true
	so, err := core.LoadSession(s, id)
	if err != nil {
		return report(id, err, bad)
	}
	for _, c := range so.Chunks {
		if err := reachChunk(s, c.ID, seen, bad); err != nil {
			return err
		}
	}
	return nil
}

// reachChunk keeps a chunk, read (and so checked) the first time it is
// reached.
func reachChunk(s *objects.Store, id objects.ID, seen map[objects.ID]bool, bad func(objects.ID, error)) error {
	if seen[id] {
		return nil
	}
	seen[id] = true
	if _, err := s.Get(id); err != nil {
		return report(id, err, bad)
	}
	return nil
}

func report(id objects.ID, err error, bad func(objects.ID, error)) error {
	if bad == nil {
		return err
	}
	bad(id, err)
	return nil
}
