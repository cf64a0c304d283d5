package ingest_test

import (
	ctxstore "ctx/store"
	"path/filepath"
	"testing"
	"time"

	"ctx/core"
	"ctx/internal/corpus"
	"ctx/objects"
	"ctx/refs"
)

// activeTree loads the tree of the active generation.
func activeTree(t *testing.T, store string) (*objects.Store, *refs.Refs, objects.ID, *refs.Generation, *core.Tree) {
	t.Helper()
	st, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := refs.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	id, err := rs.Get(refs.Active)
	if err != nil {
		t.Fatal(err)
	}
	g, err := refs.Load(st, id)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := core.LoadTree(st, g.Tree)
	if err != nil {
		t.Fatal(err)
	}
	return st, rs, id, g, tree
}

// checkEntries compares each entry's time range and workspace with its
// session object; known says whether the entries must carry them.
func checkEntries(t *testing.T, store string, known bool) {
	t.Helper()
	st, _, _, _, tree := activeTree(t, store)
	for _, e := range tree.Sessions {
		so, err := core.LoadSession(st, e.Object)
		if err != nil {
			t.Fatal(err)
		}
		s := &so.Session
		if !known {
			if !e.Started.IsZero() || !e.Ended.IsZero() || e.Workspace != "" {
				t.Fatalf("%s: entry of an old tree gained fields: %+v", e.Session, e)
			}
			continue
		}
		if !e.Started.Equal(s.Started) || !e.Ended.Equal(s.Ended) || e.Workspace != s.Workspace || s.Started.IsZero() {
			t.Fatalf("%s: entry %v..%v %q, session %v..%v %q", e.Session, e.Started, e.Ended, e.Workspace,
				s.Started, s.Ended, s.Workspace)
		}
	}
}

// TestTreeEntriesCarrySessionSpan: an import records each session's time
// range and workspace in its tree entry; a tree written before those
// fields existed stays as it is while nothing changes and is filled in by
// the next import that publishes.
func TestTreeEntriesCarrySessionSpan(t *testing.T) {
	f := newFixture(t, 1500)
	f.importOnce(t)
	checkEntries(t, f.store, true)

	// Rewrite the active generation with an old-format tree.
	st, rs, genID, g, tree := activeTree(t, f.store)
	for i := range tree.Sessions {
		e := &tree.Sessions[i]
		e.Started, e.Ended, e.Workspace = time.Time{}, time.Time{}, ""
	}
	b := st.NewBatch()
	oldTree, err := tree.Put(b)
	if err != nil {
		t.Fatal(err)
	}
	old := *g
	old.Tree, old.Parent, old.Number = oldTree, &genID, g.Number+1
	data, err := old.Encode()
	if err != nil {
		t.Fatal(err)
	}
	oldGen, err := b.Put(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := rs.Update(refs.Active, genID, oldGen, "test: old tree format"); err != nil {
		t.Fatal(err)
	}
	checkEntries(t, f.store, false)

	// Nothing changed: nothing is published, the old tree stays.
	before := f.objectCount(t)
	if rep := f.importOnce(t); rep.Published {
		t.Fatal("unchanged import published")
	}
	if f.objectCount(t) != before {
		t.Fatal("unchanged import wrote objects")
	}
	checkEntries(t, f.store, false)

	// A change publishes, and every entry is filled in.
	file := historyFiles(t, filepath.Join(f.home, ".claude"), ".jsonl")[0]
	if _, err := corpus.Append(file, 20, 3); err != nil {
		t.Fatal(err)
	}
	if rep := f.importOnce(t); !rep.Published {
		t.Fatal("append not published")
	}
	checkEntries(t, f.store, true)
}
