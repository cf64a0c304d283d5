package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ctx/objects"
)

// bigTree returns a sorted tree of n sessions made from sampleTree's
// entries under new ids.
func bigTree(n int, name string) *Tree {
	base := sampleTree()
	var entries []TreeEntry
	for i := range n {
		e := base.Sessions[i%len(base.Sessions)]
		e.Session = NewSessionID(ProviderCodex, fmt.Sprint(name, i))
		entries = append(entries, e)
	}
	return NewTree(entries)
}

func putLoad(t *testing.T, st *objects.Store, tree *Tree) (objects.ID, []objects.ID) {
	t.Helper()
	id, err := tree.Put(st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadTree(st, id)
	if err != nil {
		t.Fatalf("%d sessions: %v", len(tree.Sessions), err)
	}
	want := slices.Clone(tree.Sessions)
	slices.SortFunc(want, func(a, b TreeEntry) int { return strings.Compare(string(a.Session[:]), string(b.Session[:])) })
	if len(got.Sessions) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got.Sessions, want)) || got.Kind != KindTree {
		t.Fatalf("%d sessions: LoadTree gave %d back, or other entries", len(want), len(got.Sessions))
	}
	pieces, err := TreePieces(st, id)
	if err != nil {
		t.Fatal(err)
	}
	return id, pieces
}

// TestTreeInPieces: a tree reads back as it was written at every size; up
// to wholeTreeMax sessions it is one object, past it pieces of about
// pieceEntries sessions; the same sessions in any order make the same
// tree; a changed session changes its piece and no other.
func TestTreeInPieces(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, wholeTreeMax, wholeTreeMax + 1, 700, 5000} {
		tree := bigTree(n, "s")
		id, pieces := putLoad(t, st, tree)
		if n <= wholeTreeMax {
			if pieces != nil {
				t.Fatalf("%d sessions: %d pieces, want a whole tree", n, len(pieces))
			}
			data, _ := st.Get(id)
			if whole, _ := tree.EncodeWhole(); string(data) != string(whole) {
				t.Fatalf("%d sessions: not stored as the whole tree", n)
			}
			continue
		}
		if len(pieces) < 2 || len(pieces) > 1<<pieceBits(n) {
			t.Fatalf("%d sessions: %d pieces for %d bits", n, len(pieces), pieceBits(n))
		}
		if per := n / len(pieces); per < pieceEntries/4 || per > 2*pieceEntries {
			t.Fatalf("%d sessions: %d per piece, cut for %d", n, per, pieceEntries)
		}
		shuffled := slices.Clone(tree.Sessions)
		rand.New(rand.NewPCG(1, uint64(n))).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if again, _ := putLoad(t, st, &Tree{Sessions: shuffled}); again != id {
			t.Fatalf("%d sessions: shuffled, the tree is %s, not %s", n, again, id)
		}
		changed := bigTree(n, "s")
		k := n / 3
		changed.Sessions[k].Events++
		cid, cpieces := putLoad(t, st, changed)
		if cid == id || len(cpieces) != len(pieces) {
			t.Fatalf("%d sessions: one session changed, tree %s (was %s), %d pieces (were %d)", n, cid, id, len(cpieces), len(pieces))
		}
		diff := 0
		for i := range pieces {
			if pieces[i] != cpieces[i] {
				diff++
			}
		}
		if diff != 1 {
			t.Fatalf("%d sessions: one session changed, %d pieces changed", n, diff)
		}
	}
}

// TestTreePiecesDamaged: a root whose pieces are missing, out of order,
// not pieces, or fewer than it counts is an error naming the tree, never
// a tree with sessions left out.
func TestTreePiecesDamaged(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tree := bigTree(wholeTreeMax+200, "d")
	id, pieces := putLoad(t, st, tree)
	whole, _ := bigTree(3, "w").Put(st)
	root := func(count int, ids ...objects.ID) objects.ID {
		data, _ := json.Marshal(treeRoot{Kind: KindTreePieces, Count: count, Pieces: ids})
		rid, err := st.Put(data)
		if err != nil {
			t.Fatal(err)
		}
		return rid
	}
	n := len(tree.Sessions)
	reversed := slices.Clone(pieces)
	slices.Reverse(reversed)
	missing := objects.Hash([]byte("no such piece"))
	for name, c := range map[string]struct {
		id   objects.ID
		want string
	}{
		"pieces out of order": {root(n, reversed...), "out of order"},
		"a piece twice":       {root(n+len(tree.Sessions)/len(pieces), append(slices.Clone(pieces), pieces[len(pieces)-1])...), "out of order"},
		"a piece left out":    {root(n, pieces[1:]...), "its root says"},
		"a whole tree":        {root(3, whole), "is not a tree-piece"},
		"the tree itself":     {root(n, id), "is not a tree-piece"},
		"no pieces":           {root(0), "is not a tree"},
		"a missing piece":     {root(n, append(slices.Clone(pieces[:1]), missing)...), "not found"},
	} {
		_, err := LoadTree(st, c.id)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.id.String()) {
			t.Errorf("%s: %v, want an error naming the tree with %q", name, err, c.want)
		}
		if name == "a missing piece" && !errors.Is(err, objects.ErrNotFound) {
			t.Errorf("%s: %v is not objects.ErrNotFound", name, err)
		}
	}
}
