package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"sync"

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

// cutHere reports whether a piece starts at the entry of key: whether its
// FNV-1a hash (64 bits) is a multiple of pieceEntries.
func cutHere(key string) bool {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()%pieceEntries == 0
}

// pieceKind is how one kind of entry is cut into pieces and remembered.
type pieceKind[T any] struct {
	root  string            // the root's kind
	key   func(T) string    // the entry's key, which cutHere hashes
	piece func([]T) any     // the object of a run of entries
	equal func(a, b T) bool // whether two entries encode the same
	clone func(T) T         // a copy sharing nothing an entry's owner may change
	memo  *pieceMemo[T]
}

// pieceMemo remembers the pieces the last Put of a kind in this process
// wrote, by the key of their first entry, with a copy of their entries:
// the daemon publishes on every change and most pieces are as they were,
// so a piece whose entries equal its remembered ones is the remembered
// object, known without encoding it (encoding every piece was 30 ms of a
// 115 ms pass at a million events).
type pieceMemo[T any] struct {
	mu     sync.Mutex
	pieces map[string]memoPiece[T]
}

type memoPiece[T any] struct {
	entries []T
	id      objects.ID
}

// has is the Putter that can say whether it holds an object (objects.Store,
// objects.Batch): a remembered piece is taken only from one, and only when
// it holds the piece, since the memo outlives any one store.
type has interface {
	Has(objects.ID) bool
}

// putPieces stores items in pieces of kind k under a root whose id it
// returns. Each piece starts at an entry whose key cutHere takes.
func putPieces[T any](p objects.Putter, k pieceKind[T], items []T) (objects.ID, error) {
	root := piecesRoot{Kind: k.root, Count: len(items)}
	holder, _ := p.(has)
	k.memo.mu.Lock()
	last := k.memo.pieces
	k.memo.mu.Unlock()
	next := make(map[string]memoPiece[T], len(last))
	for len(items) > 0 {
		n := 1
		for n < len(items) && !cutHere(k.key(items[n])) {
			n++
		}
		run, first := items[:n], k.key(items[0])
		m, ok := last[first]
		if !ok || holder == nil || !slices.EqualFunc(m.entries, run, k.equal) || !holder.Has(m.id) {
			id, err := put(p, k.root, k.piece(run))
			if err != nil {
				return objects.ID{}, err
			}
			m = memoPiece[T]{entries: make([]T, len(run)), id: id}
			for i, e := range run {
				m.entries[i] = k.clone(e)
			}
		}
		next[first] = m
		root.Pieces = append(root.Pieces, m.id)
		items = items[n:]
	}
	id, err := put(p, k.root, &root)
	if err == nil {
		k.memo.mu.Lock()
		k.memo.pieces = next
		k.memo.mu.Unlock()
	}
	return id, err
}

// Put stores the tree, sorted by session id: as one object when it holds
// at most wholeMax sessions, else in pieces under a root (see above),
// whose id it returns.
func (t *Tree) Put(p objects.Putter) (objects.ID, error) {
	t.Kind = KindTree
	sessions := t.Sessions
	if !slices.IsSortedFunc(sessions, compareEntries) {
		sessions = slices.Clone(sessions)
		slices.SortStableFunc(sessions, compareEntries)
	}
	if len(sessions) <= wholeMax {
		return put(p, KindTree, &Tree{Kind: KindTree, Sessions: sessions})
	}
	return putPieces(p, treePieces, sessions)
}

// treePieces cuts trees.
var treePieces = pieceKind[TreeEntry]{
	root:  KindTreePieces,
	key:   func(e TreeEntry) string { return string(e.Session[:]) },
	piece: func(run []TreeEntry) any { return &Tree{Kind: KindTreePiece, Sessions: run} },
	equal: TreeEntry.same,
	clone: TreeEntry.clone,
	memo:  &pieceMemo[TreeEntry]{},
}

// same reports whether e and o are the same entry, field for field (the
// digest's too), as ==, which covers any field added, would.
func (e TreeEntry) same(o TreeEntry) bool {
	if e.Digest != o.Digest && (e.Digest == nil || o.Digest == nil || !e.Digest.same(o.Digest)) {
		return false
	}
	a, b := e, o
	a.Digest, b.Digest = nil, nil
	return a == b
}

// clone copies e and its digest.
func (e TreeEntry) clone() TreeEntry {
	if e.Digest != nil {
		d := *e.Digest
		d.Files, d.Models = slices.Clone(d.Files), slices.Clone(d.Models)
		if d.Tokens != nil {
			t := *d.Tokens
			d.Tokens = &t
		}
		e.Digest = &d
	}
	return e
}

// same reports whether d and o hold the same digest (a field added to
// Digest must be added here: TestSameSeesEveryField).
func (d *Digest) same(o *Digest) bool {
	return d.Title == o.Title && d.TitleSource == o.TitleSource && d.NativeID == o.NativeID && d.Parent == o.Parent &&
		d.Subagent == o.Subagent && d.SourceRoot == o.SourceRoot && d.SourceGroup == o.SourceGroup &&
		d.Prompts == o.Prompts && d.Messages == o.Messages && d.ToolCalls == o.ToolCalls && d.Commands == o.Commands &&
		d.Errors == o.Errors && d.Compactions == o.Compactions && d.Edited == o.Edited &&
		slices.Equal(d.Files, o.Files) && slices.Equal(d.Models, o.Models) &&
		(d.Tokens == nil) == (o.Tokens == nil) && (d.Tokens == nil || *d.Tokens == *o.Tokens)
}

// cursorPieces cuts cursor sets.
var cursorPieces = pieceKind[FileCursor]{
	root:  KindCursorsPieces,
	key:   func(c FileCursor) string { return c.Provider + "\x00" + c.Path },
	piece: func(run []FileCursor) any { return &Cursors{Kind: KindCursorsPiece, Files: run} },
	equal: FileCursor.same,
	clone: FileCursor.clone,
	memo:  &pieceMemo[FileCursor]{},
}

// same reports whether c and o are the same cursor, field for field (a
// field added to FileCursor must be added here: TestSameSeesEveryField).
// A nil list of sessions is not an empty one: they encode differently.
func (c FileCursor) same(o FileCursor) bool {
	return c.Provider == o.Provider && c.Path == o.Path && c.Root == o.Root && c.Group == o.Group &&
		c.Size == o.Size && c.ModTime == o.ModTime && c.Events == o.Events && c.Redactions == o.Redactions &&
		c.Missing == o.Missing && c.Companions == o.Companions &&
		(c.Sessions == nil) == (o.Sessions == nil) && slices.Equal(c.Sessions, o.Sessions) && maps.Equal(c.Problems, o.Problems)
}

// clone copies c, its sessions and its problems.
func (c FileCursor) clone() FileCursor {
	c.Sessions, c.Problems = slices.Clone(c.Sessions), maps.Clone(c.Problems)
	return c
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
	root, ok, err := decodeRoot(id, data, KindTreePieces, KindTree)
	if err == nil && !ok {
		root, _, err = decodeRoot(id, data, KindCursorsPieces, KindCursors)
	}
	return root.Pieces, err
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
// ascend (by cmp) and, when they are all its pieces (whole), add up to the
// root's count.
func loadPieces[T any](g objects.Getter, id objects.ID, root piecesRoot, whole bool, decode func([]byte) ([]T, bool), cmp func(a, b T) int) ([]T, error) {
	type read struct {
		items []T
		err   error
		ok    bool
	}
	reads := make([]read, len(root.Pieces))
	got := func(i int, data []byte, err error) {
		if err == nil {
			reads[i].items, reads[i].ok = decode(data)
		}
		reads[i].err = err
	}
	// The pieces of the local store are read and decoded on every core;
	// another Getter's one by one.
	if st, local := g.(*objects.Store); local {
		st.GetEach(root.Pieces, got)
	} else {
		for i, id := range root.Pieces {
			data, err := g.Get(id)
			got(i, data, err)
		}
	}
	out := make([]T, 0, root.Count)
	for i, pid := range root.Pieces {
		items, err := reads[i].items, reads[i].err
		if err != nil {
			return nil, fmt.Errorf("core: %s %s: %w", root.Kind, id, err)
		}
		if !reads[i].ok || len(items) == 0 {
			return nil, fmt.Errorf("core: %s %s: object %s is not one of its pieces", root.Kind, id, pid)
		}
		if len(out) > 0 && cmp(out[len(out)-1], items[0]) >= 0 || !ascending(items, cmp) {
			return nil, fmt.Errorf("core: %s %s: piece %s is out of order", root.Kind, id, pid)
		}
		out = append(out, items...)
	}
	if whole && len(out) != root.Count {
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

// decodeTreePiece decodes the sessions of a tree's piece; ok is false when
// data is not one.
func decodeTreePiece(data []byte) (sessions []TreeEntry, ok bool) {
	t, err := decodeTree(data)
	if err != nil || t.Kind != KindTreePiece {
		return nil, false
	}
	return t.Sessions, true
}

// compareEntries orders a tree's sessions by id.
func compareEntries(a, b TreeEntry) int { return bytes.Compare(a.Session[:], b.Session[:]) }

// loadTreePieces reads the tree in pieces of root (the object id), or
// some of its pieces (not whole).
func loadTreePieces(g objects.Getter, id objects.ID, root piecesRoot, whole bool) (*Tree, error) {
	sessions, err := loadPieces(g, id, root, whole, decodeTreePiece, compareEntries)
	if err != nil {
		return nil, err
	}
	return &Tree{Kind: KindTree, Sessions: sessions}, nil
}

// TreeChanges returns the sessions of two trees that can differ: for two
// trees in pieces, those of the pieces one has and the other has not (a
// piece both have holds the same sessions in both); otherwise every
// session of each. A session in neither list is in both trees alike.
// base may be nil (no earlier tree: every session of next).
func TreeChanges(g objects.Getter, base *objects.ID, next objects.ID) (old, now []TreeEntry, err error) {
	if base == nil {
		t, err := LoadTree(g, next)
		if err != nil {
			return nil, nil, err
		}
		return nil, t.Sessions, nil
	}
	roots := [2]piecesRoot{}
	for i, id := range []objects.ID{*base, next} {
		data, err := g.Get(id)
		if err != nil {
			return nil, nil, err
		}
		root, ok, err := decodeRoot(id, data, KindTreePieces, KindTree)
		if err != nil {
			return nil, nil, err
		}
		if !ok { // a whole tree: compare everything
			a, err := LoadTree(g, *base)
			if err != nil {
				return nil, nil, err
			}
			b, err := LoadTree(g, next)
			if err != nil {
				return nil, nil, err
			}
			return a.Sessions, b.Sessions, nil
		}
		roots[i] = root
	}
	in := func(r piecesRoot) map[objects.ID]bool {
		m := make(map[objects.ID]bool, len(r.Pieces))
		for _, id := range r.Pieces {
			m[id] = true
		}
		return m
	}
	shared := [2]map[objects.ID]bool{in(roots[1]), in(roots[0])}
	lists := [2][]TreeEntry{}
	for i, id := range []objects.ID{*base, next} {
		only := piecesRoot{Kind: roots[i].Kind}
		for _, p := range roots[i].Pieces {
			if !shared[i][p] {
				only.Pieces = append(only.Pieces, p)
			}
		}
		if len(only.Pieces) == 0 {
			continue
		}
		t, err := loadTreePieces(g, id, only, false)
		if err != nil {
			return nil, nil, err
		}
		lists[i] = t.Sessions
	}
	return lists[0], lists[1], nil
}
