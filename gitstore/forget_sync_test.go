package gitstore_test

import (
	"context"
	"testing"

	"ctx/core"
	"ctx/gitstore"
	"ctx/ingest"
)

// forget forgets (or with undo restores) sessions on a machine, as ctx
// forget does.
func (m *machine) forget(undo bool, ids ...core.SessionID) {
	m.t.Helper()
	if _, err := ingest.Forget(context.Background(), ingest.Options{Home: m.ctx, Version: "test"},
		ingest.ForgetRequest{Sessions: ids, Undo: undo}); err != nil {
		m.t.Fatal(err)
	}
}

// pushedTombstones reads the tombstones and the manifest of the machine's
// last commit in its mirror of the remote.
func (m *machine) pushedTombstones(remote string) (core.ForgottenSet, *gitstore.Manifest) {
	m.t.Helper()
	mr := m.mirror(remote)
	head, err := mr.Ref(gitstore.MachineRef(m.id))
	if err != nil {
		m.t.Fatal(err)
	}
	snap, err := mr.Snapshot(head, nil)
	if err != nil {
		m.t.Fatal(err)
	}
	shared, err := snap.Forgotten()
	if err != nil {
		m.t.Fatal(err)
	}
	return shared, snap.Manifest
}

// sessionOf is the id of the session whose native id is native.
func sessionOf(t *testing.T, tree map[core.SessionID]core.TreeEntry, native string) core.SessionID {
	t.Helper()
	for id, e := range tree {
		if e.Digest != nil && e.Digest.NativeID == native {
			return id
		}
	}
	t.Fatalf("no session %s in %d", native, len(tree))
	return core.SessionID{}
}

// TestForgetTravelsAsATombstone: a session forgotten on one machine leaves
// every machine that pulls after it (the owner's own copy too), stays out
// of later imports and pulls there, and an undo travels the same way.
func TestForgetTravelsAsATombstone(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	kept := a.session("/w/proj", "ordinary work", 3)
	secret := a.session("/w/proj", "pasted credentials", 3)
	b.session("/w/other", "beta work", 2)
	a.importOnce()
	b.importOnce()
	for _, m := range []*machine{a, b} {
		if _, err := m.push(r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.pull(r); err != nil {
		t.Fatal(err)
	}
	keptID, secretID := sessionOf(t, b.tree(), kept), sessionOf(t, b.tree(), secret)
	if len(b.search("credentials")) != 1 {
		t.Fatal("beta cannot search alpha's session before the forget")
	}

	// alpha forgets its own session: beta's next pull drops its copy.
	a.forget(false, secretID)
	if _, err := a.push(r); err != nil {
		t.Fatal(err)
	}
	shared, _ := a.pushedTombstones("team")
	if len(shared) != 1 || !shared.Has(secretID) {
		t.Fatalf("alpha's commit shares tombstones %v; want its one forget", shared)
	}
	for _, e := range shared {
		if e.Source.Path != "" || e.Generation != 0 {
			t.Fatalf("a shared tombstone carries this machine's path or generation: %+v", e)
		}
	}
	rep, err := b.pull(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Merged) != 1 {
		t.Fatalf("merged %d commits, want alpha's", len(rep.Merged))
	}
	if _, ok := b.tree()[secretID]; ok {
		t.Fatal("beta still holds the session alpha forgot")
	}
	if hits := b.search("credentials"); len(hits) != 0 {
		t.Fatalf("beta still finds the forgotten session: %v", hits)
	}
	if _, ok := b.tree()[keptID]; !ok {
		t.Fatal("the tombstone took another session with it")
	}

	// beta forgets alpha's other session: alpha's own copy goes, and its
	// next import does not read it back although the file grew.
	b.forget(false, keptID)
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := a.pull(r); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.tree()[keptID]; ok {
		t.Fatal("alpha still holds its session beta forgot")
	}
	a.appendSession(kept, "/w/proj", "ordinary work", 3, 5)
	a.importOnce()
	if _, ok := a.tree()[keptID]; ok {
		t.Fatal("alpha's import brought back a session forgotten on beta")
	}

	// alpha undoes that forget: the session comes back on alpha, and on
	// beta after the next push and pull.
	a.forget(true, keptID)
	a.importOnce()
	if e, ok := a.tree()[keptID]; !ok || e.Events != 5 {
		t.Fatalf("alpha after its undo: %+v %v", e, ok)
	}
	if _, err := a.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := b.pull(r); err != nil {
		t.Fatal(err)
	}
	if e, ok := b.tree()[keptID]; !ok || e.Events != 5 || e.Machine != a.id {
		t.Fatalf("beta after alpha's undo: %+v %v", e, ok)
	}
	if _, ok := b.tree()[secretID]; ok {
		t.Fatal("the undo of one session restored another")
	}
}

// TestTombstonesFollowTheIncludeRules: forgetting a session this machine
// never shares does not tell the remote that it existed.
func TestTombstonesFollowTheIncludeRules(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a := newMachine(t, "alpha")
	a.session("/w/proj", "shared work", 2)
	private := a.session("/w/private", "private work", 2)
	a.importOnce()
	a.forget(false, sessionOf(t, a.tree(), private))
	onlyProj := func(e core.TreeEntry) bool { return e.Workspace == "/w/proj" }
	if _, err := a.syncer().Push(context.Background(), r, a.source(), onlyProj); err != nil {
		t.Fatal(err)
	}
	if shared, man := a.pushedTombstones("team"); len(shared) != 0 || man.Forgotten != nil {
		t.Fatalf("a session never shared is named in the remote's tombstones: %v", shared)
	}
}
