package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"

	"ctx/objects"
)

// The session tree and the cursor set of a large store are stored in
// pieces, as Git keeps a large directory's entries in subtrees. Every
// publish writes both, and the daemon publishes each time an agent writes:
// as single objects, a store of 3,600 sessions re-encoded, compressed and
// hashed 5.2 MB of tree and 2 MB of cursors for every line an agent
// appended (55 ms of a 120 ms pass at a million events). In pieces, a
// publish compresses and writes only the pieces whose entries changed: an
// unchanged piece encodes to the same bytes, hence the same object, which
// the store already has.
//
// The entries, in their order, are cut before each entry whose key (a
// session's id, a file's provider and path) hashes to a multiple of
// pieceEntries, so a piece holds pieceEntries entries on average. The cut
// depends on the entries alone: the same entries make the same pieces and
// the same root wherever they are written, and an entry added or changed
// changes the piece it falls in and no other. A set of at most wholeMax
// entries stays one object of its kind.

// Kinds of the objects of a tree or cursor set stored in pieces.
const (
	// KindTreePieces is the root of a tree in pieces (piecesRoot).
	KindTreePieces = "tree-pieces"
	// KindTreePiece is a piece: a run of the tree's sessions, in the
	// layout of a whole tree's.
	KindTreePiece = "tree-piece"
	// KindCursorsPieces is the root of a cursor set in pieces.
	KindCursorsPieces = "cursors-pieces"
	// KindCursorsPiece is a run of a cursor set's files, in the layout of
	// a whole set's.
	KindCursorsPiece = "cursors-piece"
)

const (
	// wholeMax is the most entries a tree or cursor set stores as one
	// object.
	wholeMax = 512
	// pieceEntries is the average number of entries of a piece.
	pieceEntries = 128
)

// piecesRoot is the root object of a tree or cursor set in pieces: how
// many entries it holds and its pieces' ids, in the order of their
// entries.
type piecesRoot struct {
	Kind   string       `json:"kind"`
	Count  int          `json:"count"`
	Pieces []objects.ID `json:"pieces"`
}

// cutHere reports whether a piece starts at the entry of key.
func cutHere(key ...string) bool {
	h := fnv.New64a()
	for _, k := range key {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return h.Sum64()%pieceEntries == 0
}

// putPieces stores items in pieces, each a new piece where starts says,
// under a root of kind rootKind; piece makes the object of a run.
func putPieces[T any](p objects.Putter, rootKind string, items []T, starts func(T) bool, piece func([]T) any) (objects.ID, error) {
	root := piecesRoot{Kind: rootKind, Count: len(items)}
	for len(items) > 0 {
		n := 1
		for n < len(items) && !starts(items[n]) {
			n++
		}
		id, err := put(p, rootKind, piece(items[:n]))
		if err != nil {
			return objects.ID{}, err
		}
		root.Pieces = append(root.Pieces, id)
		items = items[n:]
	}
	return put(p, rootKind, &root)
}

// Put stores the tree, sorted by session id: as one object when it holds
// at most wholeMax sessions, else in pieces under a root (see above),
// whose id it returns.
func (t *Tree) Put(p objects.Putter) (objects.ID, error) {
	t.Kind = KindTree
	sessions := t.Sessions
	less := func(a, b TreeEntry) int { return bytes.Compare(a.Session[:], b.Session[:]) }
	if !slices.IsSortedFunc(sessions, less) {
		sessions = slices.Clone(sessions)
		slices.SortStableFunc(sessions, less)
	}
	if len(sessions) <= wholeMax {
		return put(p, KindTree, &Tree{Kind: KindTree, Sessions: sessions})
	}
	return putPieces(p, KindTreePieces, sessions,
		func(e TreeEntry) bool { return cutHere(string(e.Session[:])) },
		func(run []TreeEntry) any { return &Tree{Kind: KindTreePiece, Sessions: run} })
}

// EncodeWhole returns the tree as one object's bytes, whatever its size:
// the form a machine shares its view of the store in (gitstore), which
// is read back by LoadTree like any tree.
func (t *Tree) EncodeWhole() ([]byte, error) {
	t.Kind = KindTree
	b, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("core: encode %s: %w", KindTree, err)
	}
	return b, nil
}

// Pieces returns the ids of the pieces of the object id (of bytes data)
// when it is the root of a tree or cursor set stored in pieces, else nil:
// what such an object reaches besides what its entries name.
func Pieces(id objects.ID, data []byte) ([]objects.ID, error) {
	for kind, noun := range map[string]string{KindTreePieces: KindTree, KindCursorsPieces: KindCursors} {
		if root, ok, err := decodeRoot(id, data, kind, noun); err != nil || ok {
			return root.Pieces, err
		}
	}
	return nil, nil
}

// decodeRoot decodes data as a root of kind; ok is false (and err nil)
// when it is an object of another kind. The kind is read from the start
// of the bytes, where Put writes it: a whole tree's are megabytes, which
// this is asked of before they are decoded.
func decodeRoot(id objects.ID, data []byte, kind, noun string) (root piecesRoot, ok bool, err error) {
	if !bytes.HasPrefix(data, []byte(`{"kind":"`+kind+`"`)) {
		return piecesRoot{}, false, nil
	}
	if err := json.Unmarshal(data, &root); err != nil || root.Count < 0 || len(root.Pieces) == 0 {
		return piecesRoot{}, false, fmt.Errorf("core: object %s is not a %s", id, noun)
	}
	return root, true, nil
}

// loadPieces reads the pieces of root (the object id) in order, decoding
// each with decode (which checks its kind), and checks that their entries
// ascend (by cmp) and add up to the root's count.
func loadPieces[T any](g objects.Getter, id objects.ID, root piecesRoot, decode func([]byte) ([]T, bool), cmp func(a, b T) int) ([]T, error) {
	out := make([]T, 0, root.Count)
	for _, pid := range root.Pieces {
		data, err := g.Get(pid)
		if err != nil {
			return nil, fmt.Errorf("core: %s %s: %w", root.Kind, id, err)
		}
		items, ok := decode(data)
		if !ok || len(items) == 0 {
			return nil, fmt.Errorf("core: %s %s: object %s is not one of its pieces", root.Kind, id, pid)
		}
		if len(out) > 0 && cmp(out[len(out)-1], items[0]) >= 0 || !ascending(items, cmp) {
			return nil, fmt.Errorf("core: %s %s: piece %s is out of order", root.Kind, id, pid)
		}
		out = append(out, items...)
	}
	if len(out) != root.Count {
		return nil, fmt.Errorf("core: %s %s: its pieces hold %d entries, its root says %d", root.Kind, id, len(out), root.Count)
	}
	return out, nil
}

// ascending reports whether each item sorts after the one before it.
func ascending[T any](items []T, cmp func(a, b T) int) bool {
	for i := 1; i < len(items); i++ {
		if cmp(items[i-1], items[i]) >= 0 {
			return false
		}
	}
	return true
}

// loadTreePieces reads the tree in pieces of root (the object id).
func loadTreePieces(g objects.Getter, id objects.ID, root piecesRoot) (*Tree, error) {
	sessions, err := loadPieces(g, id, root, func(data []byte) ([]TreeEntry, bool) {
		t, err := decodeTree(data)
		if err != nil || t.Kind != KindTreePiece {
			return nil, false
		}
		return t.Sessions, true
	}, func(a, b TreeEntry) int { return bytes.Compare(a.Session[:], b.Session[:]) })
	if err != nil {
		return nil, err
	}
	return &Tree{Kind: KindTree, Sessions: sessions}, nil
}
