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
	"time"

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

// bigCursors returns a sorted cursor set of n files.
func bigCursors(n int, name string) *Cursors {
	c := &Cursors{Kind: KindCursors}
	t0 := time.Date(2026, 7, 1, 9, 30, 15, 0, time.UTC)
	for i := range n {
		f := FileCursor{Provider: []string{ProviderClaude, ProviderCodex}[i%2], Path: fmt.Sprintf("/h/%s/%d.jsonl", name, i),
			Size: int64(i) * 1000, ModTime: t0.Add(time.Duration(i) * time.Second), Events: i,
			Sessions: []SessionID{NewSessionID(ProviderClaude, fmt.Sprint(name, i))}}
		if i%7 == 3 {
			f.Problems, f.Redactions, f.Companions = map[string]int{"truncated": 1}, 2, "12:34"
		}
		c.Files = append(c.Files, f)
	}
	slices.SortFunc(c.Files, compareCursors)
	return c
}

// pieced is a tree or a cursor set as the tests below write and read it.
type pieced struct {
	name    string
	n       int
	entries func(name string) any // a fresh set of n entries
	shuffle func(v any, r *rand.Rand) any
	change  func(v any, i int)
	put     func(v any, st *objects.Store) (objects.ID, error)
	load    func(st *objects.Store, id objects.ID) (any, error)
	whole   func(v any) []byte // the one object a small set is
}

func kinds(n int) []pieced {
	return []pieced{{
		name: "tree", n: n,
		entries: func(name string) any { return bigTree(n, name) },
		shuffle: func(v any, r *rand.Rand) any {
			s := slices.Clone(v.(*Tree).Sessions)
			r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
			return &Tree{Sessions: s}
		},
		change: func(v any, i int) { v.(*Tree).Sessions[i].Events++ },
		put:    func(v any, st *objects.Store) (objects.ID, error) { return v.(*Tree).Put(st) },
		load: func(st *objects.Store, id objects.ID) (any, error) {
			t, err := LoadTree(st, id)
			if err == nil && len(t.Sessions) == 0 {
				t.Sessions = nil
			}
			return t, err
		},
		whole: func(v any) []byte { b, _ := v.(*Tree).EncodeWhole(); return b },
	}, {
		name: "cursors", n: n,
		entries: func(name string) any { return bigCursors(n, name) },
		shuffle: func(v any, r *rand.Rand) any {
			s := slices.Clone(v.(*Cursors).Files)
			r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
			return &Cursors{Files: s}
		},
		change: func(v any, i int) { v.(*Cursors).Files[i].Size++ },
		put:    func(v any, st *objects.Store) (objects.ID, error) { return v.(*Cursors).Put(st) },
		load: func(st *objects.Store, id objects.ID) (any, error) {
			c, err := LoadCursors(st, id)
			if err == nil && len(c.Files) == 0 {
				c.Files = nil
			}
			return c, err
		},
		whole: func(v any) []byte { b, _ := json.Marshal(v); return b },
	}}
}

// putLoad writes v, reads it back and compares, and returns its id and
// pieces.
func putLoad(t *testing.T, st *objects.Store, k pieced, v any) (objects.ID, []objects.ID) {
	t.Helper()
	id, err := k.put(v, st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := k.load(st, id)
	if err != nil {
		t.Fatalf("%s of %d: %v", k.name, k.n, err)
	}
	if !reflect.DeepEqual(got, sortedCopy(v)) {
		t.Fatalf("%s of %d: read back other entries", k.name, k.n)
	}
	data, _ := st.Get(id)
	pieces, err := Pieces(id, data)
	if err != nil {
		t.Fatal(err)
	}
	return id, pieces
}

// sortedCopy returns v's entries sorted, as Put stores them.
func sortedCopy(v any) any {
	switch v := v.(type) {
	case *Tree:
		s := slices.Clone(v.Sessions)
		slices.SortFunc(s, func(a, b TreeEntry) int { return strings.Compare(string(a.Session[:]), string(b.Session[:])) })
		return &Tree{Kind: KindTree, Sessions: s}
	case *Cursors:
		s := slices.Clone(v.Files)
		slices.SortFunc(s, compareCursors)
		return &Cursors{Kind: KindCursors, Files: s}
	}
	panic("not a tree or cursors")
}

// TestPieces: a tree and a cursor set read back as they were written at
// every size; up to wholeMax entries each is one object, past it pieces
// of about pieceEntries entries; the same entries in any order make the
// same object; a changed entry changes its piece and no other.
func TestPieces(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, wholeMax, wholeMax + 1, 700, 5000} {
		for _, k := range kinds(n) {
			v := k.entries(k.name)
			id, pieces := putLoad(t, st, k, v)
			if n <= wholeMax {
				if pieces != nil {
					t.Fatalf("%s of %d: %d pieces, want one object", k.name, n, len(pieces))
				}
				if data, _ := st.Get(id); string(data) != string(k.whole(sortedCopy(v))) {
					t.Fatalf("%s of %d: not stored as one object", k.name, n)
				}
				continue
			}
			if per := n / max(1, len(pieces)); len(pieces) < 2 || per < pieceEntries/4 || per > 4*pieceEntries {
				t.Fatalf("%s of %d: %d pieces, cut for %d entries each", k.name, n, len(pieces), pieceEntries)
			}
			if again, _ := putLoad(t, st, k, k.shuffle(v, rand.New(rand.NewPCG(1, uint64(n))))); again != id {
				t.Fatalf("%s of %d: shuffled, the object is %s, not %s", k.name, n, again, id)
			}
			changed := k.entries(k.name)
			k.change(changed, n/3)
			cid, cpieces := putLoad(t, st, k, changed)
			if cid == id || len(cpieces) != len(pieces) {
				t.Fatalf("%s of %d: one entry changed, object %s (was %s), %d pieces (were %d)", k.name, n, cid, id, len(cpieces), len(pieces))
			}
			diff := 0
			for i := range pieces {
				if pieces[i] != cpieces[i] {
					diff++
				}
			}
			if diff != 1 {
				t.Fatalf("%s of %d: one entry changed, %d pieces changed", k.name, n, diff)
			}
		}
	}
}

// TestPiecesDamaged: a root whose pieces are missing, out of order, not
// its pieces, or fewer than it counts is an error naming it, never a tree
// or cursor set with entries left out.
func TestPiecesDamaged(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds(wholeMax + 300) {
		v := k.entries(k.name)
		id, pieces := putLoad(t, st, k, v)
		small, _ := k.put(kinds(3)[slices.IndexFunc(kinds(3), func(o pieced) bool { return o.name == k.name })].entries("w"), st)
		rootKind := map[string]string{"tree": KindTreePieces, "cursors": KindCursorsPieces}[k.name]
		otherPiece := map[string]string{"tree": KindCursorsPiece, "cursors": KindTreePiece}[k.name]
		root := func(count int, ids ...objects.ID) objects.ID {
			data, _ := json.Marshal(piecesRoot{Kind: rootKind, Count: count, Pieces: ids})
			rid, err := st.Put(data)
			if err != nil {
				t.Fatal(err)
			}
			return rid
		}
		foreign, _ := st.Put([]byte(`{"kind":"` + otherPiece + `","sessions":[],"files":[]}`))
		n := k.n
		reversed := slices.Clone(pieces)
		slices.Reverse(reversed)
		missing := objects.Hash([]byte("no such piece"))
		for name, c := range map[string]struct {
			id   objects.ID
			want string
		}{
			"pieces out of order": {root(n, reversed...), "out of order"},
			"a piece twice":       {root(n, append(slices.Clone(pieces), pieces[len(pieces)-1])...), "out of order"},
			"a piece left out":    {root(n, pieces[1:]...), "its root says"},
			"a whole object":      {root(3, small), "is not one of its pieces"},
			"another kind's":      {root(n, foreign), "is not one of its pieces"},
			"the root itself":     {root(n, id), "is not one of its pieces"},
			"no pieces":           {root(0), "is not a"},
			"a missing piece":     {root(n, append(slices.Clone(pieces[:1]), missing)...), "not found"},
		} {
			_, err := k.load(st, c.id)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.id.String()) {
				t.Errorf("%s, %s: %v, want an error naming it with %q", k.name, name, err, c.want)
			}
			if name == "a missing piece" && !errors.Is(err, objects.ErrNotFound) {
				t.Errorf("%s, %s: %v is not objects.ErrNotFound", k.name, name, err)
			}
			if k.name != "tree" {
				continue
			}
			// A tree walk sees the same damage, whether it reads the
			// pieces now or has read them for the sound tree before.
			for _, warm := range []bool{false, true} {
				w := NewTreeWalk(st)
				if warm {
					if _, err := w.Tree(id, func(objects.ID, []TreeEntry) error { return nil }); err != nil {
						t.Fatal(err)
					}
				}
				_, err := w.Tree(c.id, func(objects.ID, []TreeEntry) error { return nil })
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.id.String()) {
					t.Errorf("tree walk (warm %v), %s: %v, want an error naming it with %q", warm, name, err, c.want)
				}
			}
		}
	}
}

// countingPutter is a store that counts the objects put into it and
// cannot say what it holds.
type countingPutter struct {
	st   *objects.Store
	puts int
}

func (c *countingPutter) Put(data []byte) (objects.ID, error) { c.puts++; return c.st.Put(data) }

// hasPutter is a countingPutter that says what it holds.
type hasPutter struct{ *countingPutter }

func (h hasPutter) Has(id objects.ID) bool { return h.st.Has(id) }

// TestPiecesRemembered: a Put after a Put writes only the pieces whose
// entries changed, whether they changed by a new value or in place
// through what the entries share with their owner; it does not take a
// remembered piece from a store without it, nor from a writer that cannot
// say what it holds.
func TestPiecesRemembered(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tree := bigTree(3000, "m")
	for i, e := range tree.Sessions {
		tree.Sessions[i] = e.clone() // a digest of its own, as each session has
	}
	c := &countingPutter{st: st}
	p := hasPutter{c}
	first, err := tree.Put(p)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := st.Get(first)
	pieces, _ := Pieces(first, data)
	if c.puts != len(pieces)+1 {
		t.Fatalf("first put: %d objects for %d pieces and a root", c.puts, len(pieces))
	}
	put := func(p objects.Putter, want int, what string) objects.ID {
		t.Helper()
		c.puts = 0
		id, err := tree.Put(p)
		if err != nil {
			t.Fatal(err)
		}
		if c.puts != want {
			t.Fatalf("%s: %d objects encoded, want %d", what, c.puts, want)
		}
		got, err := LoadTree(st, id)
		if err != nil || !reflect.DeepEqual(got.Sessions, tree.Sessions) {
			t.Fatalf("%s: the tree read back is not the tree put (%v)", what, err)
		}
		return id
	}
	if put(p, 1, "unchanged") != first {
		t.Fatal("an unchanged tree is another object")
	}
	tree.Sessions[10].Events++
	put(p, 2, "one entry changed")
	i := slices.IndexFunc(tree.Sessions, func(e TreeEntry) bool { return e.Digest != nil && len(e.Digest.Files) > 0 })
	tree.Sessions[i].Digest.Files[0] += "x" // in place, through the shared digest
	put(p, 2, "a digest changed in place")
	tree.Sessions[i].Digest.Tokens = &Tokens{Input: 1}
	put(p, 2, "a digest's tokens set")
	put(c, len(pieces)+1, "a writer that cannot say what it holds")
	other, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	oc := &countingPutter{st: other}
	id, err := tree.Put(hasPutter{oc})
	if err != nil || oc.puts != len(pieces)+1 {
		t.Fatalf("another store: %d objects put, want every piece and the root (%v)", oc.puts, err)
	}
	if got, err := LoadTree(other, id); err != nil || len(got.Sessions) != len(tree.Sessions) {
		t.Fatalf("another store: %v", err)
	}
}

// TestSameSeesEveryField: changing any one field of a tree entry, its
// digest or a file cursor makes it another entry, so a changed entry is
// never taken for a remembered one; a clone is the same entry and shares
// nothing that can change.
func TestSameSeesEveryField(t *testing.T) {
	e := bigTree(40, "f").Sessions[3]
	e.Machine, e.Digest.Tokens, e.Digest.Models = "m", &Tokens{Input: 1}, []string{"a"}
	cur := bigCursors(10, "f").Files[3]
	cur.Root, cur.Group = "r", "g"
	every(t, "TreeEntry", e, func(a, b TreeEntry) bool { return a.same(b) })
	every(t, "Digest", *e.Digest, func(a, b Digest) bool { return a.same(&b) })
	every(t, "FileCursor", cur, FileCursor.same)
	if ce := e.clone(); !e.same(ce) || ce.Digest == e.Digest || &ce.Digest.Files[0] == &e.Digest.Files[0] || ce.Digest.Tokens == e.Digest.Tokens {
		t.Fatal("a clone of an entry is not the same, or shares its digest")
	}
	if cc := cur.clone(); !cur.same(cc) || &cc.Sessions[0] == &cur.Sessions[0] {
		t.Fatal("a clone of a cursor is not the same, or shares its sessions")
	}
	empty := cur
	empty.Sessions = []SessionID{}
	if nilSessions := cur; func() bool { nilSessions.Sessions = nil; return nilSessions.same(empty) }() {
		t.Fatal("no sessions (null) and an empty list ([]) encode differently but are the same")
	}
}

// every changes each field of v in turn (to a value it does not hold) and
// checks that same then tells the two apart.
func every[T any](t *testing.T, name string, v T, same func(a, b T) bool) {
	t.Helper()
	if !same(v, v) {
		t.Fatalf("%s: not the same as itself", name)
	}
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		w := reflect.New(rv.Type()).Elem()
		w.Set(rv)
		f := w.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "'")
		case reflect.Int, reflect.Int64:
			f.SetInt(f.Int() + 1)
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Array:
			f.Index(0).SetUint(f.Index(0).Uint() + 1)
		case reflect.Slice:
			f.Set(reflect.Append(reflect.MakeSlice(f.Type(), 0, f.Len()+1), reflect.Zero(f.Type().Elem())))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
			f.SetMapIndex(reflect.ValueOf("other"), reflect.ValueOf(9))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			if f.Elem().Kind() == reflect.Struct && f.Elem().NumField() > 0 && f.Elem().Field(0).CanSet() {
				switch f.Elem().Field(0).Kind() {
				case reflect.String:
					f.Elem().Field(0).SetString("other")
				case reflect.Int64:
					f.Elem().Field(0).SetInt(7)
				}
			}
		case reflect.Struct: // time.Time
			f.Set(reflect.ValueOf(f.Interface().(time.Time).Add(time.Second)))
		default:
			t.Fatalf("%s.%s: a field of kind %s the test cannot change", name, rv.Type().Field(i).Name, f.Kind())
		}
		if same(v, w.Interface().(T)) {
			t.Errorf("%s.%s changed, and still the same", name, rv.Type().Field(i).Name)
		}
	}
}

// TestCutHereCutsEvery128: about one key in pieceEntries starts a piece.
func TestCutHereCutsEvery128(t *testing.T) {
	cuts := 0
	for i := range 20000 {
		if cutHere(fmt.Sprint("key", i)) {
			cuts++
		}
	}
	if cuts < 20000/pieceEntries/2 || cuts > 20000/pieceEntries*2 {
		t.Fatalf("%d cuts in 20,000 keys, want about %d", cuts, 20000/pieceEntries)
	}
}

// TestTreeChanges: the sessions TreeChanges leaves out of its lists are
// the same in both trees; every added, changed and removed session is in
// them; of two trees in pieces it reads the pieces that differ, of any
// other pair every session.
func TestTreeChanges(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	put := func(tr *Tree) objects.ID {
		id, err := tr.Put(st)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	check := func(name string, a, b *Tree, wantAll bool) {
		t.Helper()
		ida, idb := put(a), put(b)
		was, now, err := TreeChanges(st, &ida, idb)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		inA, inB := map[SessionID]TreeEntry{}, map[SessionID]TreeEntry{}
		for _, e := range a.Sessions {
			inA[e.Session] = e
		}
		for _, e := range b.Sessions {
			inB[e.Session] = e
		}
		listed := func(l []TreeEntry, side map[SessionID]TreeEntry) map[SessionID]bool {
			m := map[SessionID]bool{}
			for _, e := range l {
				if got, ok := side[e.Session]; !ok || !got.same(e) {
					t.Fatalf("%s: listed %x, which its tree does not hold so", name, e.Session[:4])
				}
				m[e.Session] = true
			}
			return m
		}
		lw, ln := listed(was, inA), listed(now, inB)
		for id, e := range inB {
			if !ln[id] {
				if old, ok := inA[id]; !ok || !old.same(e) {
					t.Fatalf("%s: %x added or changed, and not listed", name, id[:4])
				}
			}
		}
		for id := range inA {
			if _, ok := inB[id]; !ok && !lw[id] {
				t.Fatalf("%s: %x removed, and not listed", name, id[:4])
			}
		}
		if all := len(was) == len(a.Sessions) && len(now) == len(b.Sessions); all != wantAll {
			t.Fatalf("%s: listed %d and %d of %d and %d sessions", name, len(was), len(now), len(a.Sessions), len(b.Sessions))
		}
	}
	base := bigTree(3000, "c")
	changed := bigTree(3000, "c")
	changed.Sessions[100].Events++
	changed.Sessions[2000].Machine = "other"
	check("two sessions changed", base, changed, false)
	grown := bigTree(3001, "c") // one session more, somewhere in the order
	check("one session added", base, grown, false)
	check("one session removed", grown, base, false)
	check("the same tree", base, bigTree(3000, "c"), false)
	check("two small trees", bigTree(300, "c"), bigTree(301, "c"), true)
	check("a small tree grown past whole", bigTree(500, "c"), bigTree(600, "c"), true)
	id := put(base)
	if was, now, err := TreeChanges(st, nil, id); err != nil || was != nil || len(now) != 3000 {
		t.Fatalf("no base: %d and %d listed (%v)", len(was), len(now), err)
	}
}

// TestTreeWalk: a walk over trees that share pieces reads each piece once
// and hands over every session of every tree, each once per piece.
func TestTreeWalk(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	changed := bigTree(3000, "w")
	changed.Sessions[1500].Events++
	trees := []*Tree{bigTree(3000, "w"), changed, bigTree(3001, "w"), bigTree(40, "w")}
	w := NewTreeWalk(st)
	handed := map[SessionID][]TreeEntry{}
	calls, distinct := 0, map[objects.ID]bool{}
	for i, tr := range trees {
		id, err := tr.Put(st)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := st.Get(id)
		want, _ := Pieces(id, data)
		got, err := w.Tree(id, func(p objects.ID, s []TreeEntry) error {
			calls++
			data, err := st.Get(p)
			if err != nil {
				return err
			}
			if pt, err := decodeTree(data); err != nil || !slices.EqualFunc(pt.Sessions, s, TreeEntry.same) {
				t.Fatalf("tree %d: the sessions handed over with %s are not its own (%v)", i, p, err)
			}
			for _, e := range s {
				handed[e.Session] = append(handed[e.Session], e)
			}
			return nil
		})
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("tree %d: pieces %d, want %d (%v)", i, len(got), len(want), err)
		}
		for _, p := range want {
			distinct[p] = true
		}
		if want == nil {
			distinct[id] = true
		}
	}
	if calls != len(distinct) {
		t.Fatalf("%d pieces handed over, %d distinct pieces and whole trees", calls, len(distinct))
	}
	for i, tr := range trees {
		for _, e := range tr.Sessions {
			if !slices.ContainsFunc(handed[e.Session], e.same) {
				t.Fatalf("tree %d: session %x as it holds it was not handed over", i, e.Session[:4])
			}
		}
	}
}
