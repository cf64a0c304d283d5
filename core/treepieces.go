package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"

	"ctx/objects"
)

// A tree of many sessions is stored in pieces, as Git keeps a large
// directory's entries in subtrees. Every publish writes the tree, and the
// daemon publishes each time an agent writes; as one object, a tree of
// 3,600 sessions was 5.2 MB of JSON to encode, compress and hash for every
// line an agent appended (45 ms of a 120 ms pass at a million events).
// In pieces, a publish compresses and writes only the pieces whose
// sessions changed: an unchanged piece encodes to the same bytes, hence
// the same object, which the store already has.
//
// The sessions are cut by the leading bits of their id, as many bits as
// keep a piece near pieceEntries sessions. The cut depends on the entries
// alone, so the same sessions make the same pieces and the same tree id
// wherever they are written, as a whole tree did. A tree of at most
// wholeTreeMax sessions stays one object of kind tree.

// Kinds of a tree stored in pieces.
const (
	// KindTreePieces is the root of a tree in pieces: the number of its
	// sessions and its pieces' ids, in the order of their sessions.
	KindTreePieces = "tree-pieces"
	// KindTreePiece is a piece: a run of the tree's sessions, in the
	// layout of a whole tree's.
	KindTreePiece = "tree-piece"
)

const (
	// wholeTreeMax is the most sessions a tree stores as one object.
	wholeTreeMax = 512
	// pieceEntries is the number of sessions a piece is cut for.
	pieceEntries = 128
	// maxPieceBits bounds the id bits a tree is cut by (65,536 pieces).
	maxPieceBits = 16
)

// treeRoot is the object of kind KindTreePieces.
type treeRoot struct {
	Kind   string       `json:"kind"`
	Count  int          `json:"count"`
	Pieces []objects.ID `json:"pieces"`
}

// pieceBits returns the number of leading session-id bits that cut a tree
// of n sessions into pieces, 0 for a tree kept whole.
func pieceBits(n int) int {
	if n <= wholeTreeMax {
		return 0
	}
	return min(bits.Len(uint((n-1)/pieceEntries)), maxPieceBits)
}

// piecePrefix returns the leading k bits of id.
func piecePrefix(id SessionID, k int) uint32 {
	return (uint32(id[0])<<8 | uint32(id[1])) >> (maxPieceBits - k)
}

// Put stores the tree, sorted by session id: as one object when it holds
// at most wholeTreeMax sessions, else in pieces under a root (see above),
// whose id it returns.
func (t *Tree) Put(p objects.Putter) (objects.ID, error) {
	t.Kind = KindTree
	sessions := t.Sessions
	less := func(a, b TreeEntry) int { return bytes.Compare(a.Session[:], b.Session[:]) }
	if !slices.IsSortedFunc(sessions, less) {
		sessions = slices.Clone(sessions)
		slices.SortStableFunc(sessions, less)
	}
	k := pieceBits(len(sessions))
	if k == 0 {
		return put(p, KindTree, &Tree{Kind: KindTree, Sessions: sessions})
	}
	root := treeRoot{Kind: KindTreePieces, Count: len(sessions)}
	for len(sessions) > 0 {
		pre := piecePrefix(sessions[0].Session, k)
		n := 1
		for n < len(sessions) && piecePrefix(sessions[n].Session, k) == pre {
			n++
		}
		id, err := put(p, KindTreePiece, &Tree{Kind: KindTreePiece, Sessions: sessions[:n]})
		if err != nil {
			return objects.ID{}, err
		}
		root.Pieces = append(root.Pieces, id)
		sessions = sessions[n:]
	}
	return put(p, KindTreePieces, &root)
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

// TreePieces returns the ids of the pieces of the tree id, nil for a
// tree stored whole: the objects a tree reaches besides its root and its
// sessions'.
func TreePieces(g objects.Getter, id objects.ID) ([]objects.ID, error) {
	data, err := g.Get(id)
	if err != nil {
		return nil, err
	}
	root, ok, err := decodeRoot(id, data)
	if err != nil || !ok {
		return nil, err
	}
	return root.Pieces, nil
}

// rootPrefix starts every root Put writes (its kind comes first).
var rootPrefix = []byte(`{"kind":"` + KindTreePieces + `"`)

// decodeRoot decodes data as the root of a tree in pieces; ok is false
// (and err nil) when it is an object of another kind. The kind is read
// from the start of the bytes: a whole tree's are megabytes, which this
// is asked of before each is decoded.
func decodeRoot(id objects.ID, data []byte) (root treeRoot, ok bool, err error) {
	if !bytes.HasPrefix(data, rootPrefix) {
		return treeRoot{}, false, nil
	}
	if err := json.Unmarshal(data, &root); err != nil || root.Count < 0 || len(root.Pieces) == 0 {
		return treeRoot{}, false, fmt.Errorf("core: object %s is not a %s", id, KindTree)
	}
	return root, true, nil
}

// loadPieces reads the pieces of root (the object id) into one tree,
// checking that each is a piece and that their sessions ascend and add up
// to the root's count.
func loadPieces(g objects.Getter, id objects.ID, root treeRoot) (*Tree, error) {
	t := &Tree{Kind: KindTree, Sessions: make([]TreeEntry, 0, root.Count)}
	for _, pid := range root.Pieces {
		data, err := g.Get(pid)
		if err != nil {
			return nil, fmt.Errorf("core: tree %s: %w", id, err)
		}
		piece, err := decodeTree(data)
		if err != nil || piece.Kind != KindTreePiece || len(piece.Sessions) == 0 {
			return nil, fmt.Errorf("core: tree %s: object %s is not a %s", id, pid, KindTreePiece)
		}
		for _, e := range piece.Sessions {
			if n := len(t.Sessions); n > 0 && bytes.Compare(t.Sessions[n-1].Session[:], e.Session[:]) >= 0 {
				return nil, fmt.Errorf("core: tree %s: piece %s is out of order", id, pid)
			}
			t.Sessions = append(t.Sessions, e)
		}
	}
	if len(t.Sessions) != root.Count {
		return nil, fmt.Errorf("core: tree %s: its pieces hold %d sessions, its root says %d", id, len(t.Sessions), root.Count)
	}
	return t, nil
}
