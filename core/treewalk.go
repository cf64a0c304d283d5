package core

import (
	"bytes"
	"fmt"

	"ctx/objects"
)

// TreeWalk reads the trees of many generations, as gc and verify do, each
// piece once. The generations the daemon publishes, one per change an
// agent writes, share all but a piece or two of their trees: loading each
// tree whole cost 80 ms a generation at a million events, 40 s for a
// store's 500 generations, for the same pieces read again and again.
type TreeWalk struct {
	g      objects.Getter
	pieces map[objects.ID]pieceSpan
}

// pieceSpan is what the checks of a tree need of a piece read before: how
// many sessions it holds, and its first and last.
type pieceSpan struct {
	count       int
	first, last SessionID
}

// NewTreeWalk starts a walk over the trees of g.
func NewTreeWalk(g objects.Getter) *TreeWalk {
	return &TreeWalk{g: g, pieces: map[objects.ID]pieceSpan{}}
}

// Tree checks the tree id as LoadTree does, and calls fresh with each of
// its pieces this walk has not read before and its sessions (with id and
// all of them, for a tree stored whole). It returns the tree's pieces, nil
// for a whole tree.
func (w *TreeWalk) Tree(id objects.ID, fresh func(piece objects.ID, sessions []TreeEntry) error) ([]objects.ID, error) {
	data, err := w.g.Get(id)
	if err != nil {
		return nil, err
	}
	root, ok, err := decodeRoot(id, data, KindTreePieces, KindTree)
	if err != nil {
		return nil, err
	}
	if !ok {
		t, err := decodeWholeTree(id, data)
		if err != nil {
			return nil, err
		}
		return nil, fresh(id, t.Sessions)
	}
	total := 0
	var last *SessionID
	for _, pid := range root.Pieces {
		span, ok := w.pieces[pid]
		if !ok {
			data, err := w.g.Get(pid)
			if err != nil {
				return root.Pieces, fmt.Errorf("core: %s %s: %w", root.Kind, id, err)
			}
			sessions, ok := decodeTreePiece(data)
			if !ok || len(sessions) == 0 {
				return root.Pieces, fmt.Errorf("core: %s %s: object %s is not one of its pieces", root.Kind, id, pid)
			}
			if !ascending(sessions, compareEntries) {
				return root.Pieces, fmt.Errorf("core: %s %s: piece %s is out of order", root.Kind, id, pid)
			}
			span = pieceSpan{count: len(sessions), first: sessions[0].Session, last: sessions[len(sessions)-1].Session}
			w.pieces[pid] = span
			if err := fresh(pid, sessions); err != nil {
				return root.Pieces, err
			}
		}
		if last != nil && bytes.Compare(last[:], span.first[:]) >= 0 {
			return root.Pieces, fmt.Errorf("core: %s %s: piece %s is out of order", root.Kind, id, pid)
		}
		last, total = &span.last, total+span.count
	}
	if total != root.Count {
		return root.Pieces, fmt.Errorf("core: %s %s: its pieces hold %d entries, its root says %d", root.Kind, id, total, root.Count)
	}
	return root.Pieces, nil
}
