package gitstore_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"ctx/core"
	"ctx/gitstore"
	"ctx/objects"
)

func TestThreeMachinesAroundABareRemote(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b, c := newMachine(t, "alpha"), newMachine(t, "beta"), newMachine(t, "gamma")
	a.session("/w/proj", "alpha wrote quokka", 5)
	b.session("/w/proj", "beta wrote wombat", 7)
	c.session("/w/proj", "gamma wrote numbat", 2)
	for _, m := range []*machine{a, b, c} {
		m.importOnce()
		if rep, err := m.push(r); err != nil || !rep.Pushed {
			t.Fatalf("push %s: %v %+v", m.id, err, rep)
		}
	}
	states := func() map[string]string {
		st, err := c.syncer().Status(t.Context(), r, c.source(), all)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, m := range st.Machines {
			out[m.Machine] = m.State
		}
		return out
	}
	if st := states(); st[a.id] != gitstore.StateNew || st[b.id] != gitstore.StateNew || st[c.id] != gitstore.StateUpToDate {
		t.Fatalf("status before pull: %v", st)
	}
	rep, err := c.pull(r)
	if err != nil {
		t.Fatal(err)
	}
	if st := states(); st[a.id] != gitstore.StateUpToDate || st[b.id] != gitstore.StateUpToDate || st[c.id] != gitstore.StateUpToDate {
		t.Fatalf("status after pull: %v", st)
	}
	if len(rep.Merged) != 2 {
		t.Fatalf("merged %d machines, want 2", len(rep.Merged))
	}
	tree := c.tree()
	if len(tree) != 3 {
		t.Fatalf("gamma holds %d sessions, want 3", len(tree))
	}
	machines := map[string]int{}
	for _, e := range tree {
		machines[e.Machine] += e.Events
	}
	if machines[a.id] != 5 || machines[b.id] != 7 || machines[""] != 2 {
		t.Fatalf("sessions by machine: %v", machines)
	}
	g := c.source().Generation
	if len(g.Merged) != 2 || g.Parent == nil {
		t.Fatalf("merge generation: parent %v, merged %+v", g.Parent, g.Merged)
	}
	if len(c.search("wombat")) != 1 || len(c.search("quokka")) != 1 {
		t.Fatal("pulled sessions are not indexed")
	}

	// Nothing new: nothing merged, no generation.
	before := c.source().GenerationID
	if rep, err := c.pull(r); err != nil || len(rep.Merged) != 0 || c.source().GenerationID != before {
		t.Fatalf("second pull: %v %+v", err, rep)
	}
	// gamma shares only its own sessions: pulled ones stay their machines'.
	c.session("/w/proj", "gamma again", 1)
	c.importOnce()
	if st := states(); st[c.id] != gitstore.StateAhead {
		t.Fatalf("status with an unpushed session: %v", st)
	}
	if rep, err := c.push(r); err != nil || rep.Exported.Manifest.Sessions != 2 {
		t.Fatalf("gamma's push: %v %+v", err, rep)
	}
	if st := states(); st[c.id] != gitstore.StateUpToDate {
		t.Fatalf("status after push: %v", st)
	}
}

func TestSameSessionFromTwoMachinesIsOneLongestHistory(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	// A shared home: the same native session, beta saw more of it.
	native := a.session("/w/proj", "shared session", 4)
	b.appendSession(native, "/w/proj", "shared session", 0, 9)
	a.importOnce()
	b.importOnce()
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := a.pull(r); err != nil {
		t.Fatal(err)
	}
	tree := a.tree()
	if len(tree) != 1 {
		t.Fatalf("%d sessions, want 1", len(tree))
	}
	for _, e := range tree {
		if e.Events != 9 || e.Machine != b.id {
			t.Fatalf("entry %+v: want beta's 9 events", e)
		}
	}
	if hits := a.search("shared"); len(hits) != 1 {
		t.Fatalf("hits in %d sessions, want 1", len(hits))
	}
	// The shorter copy never replaces the longer one.
	if _, err := a.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := b.pull(r); err != nil {
		t.Fatal(err)
	}
	for _, e := range b.tree() {
		if e.Events != 9 || e.Machine != "" {
			t.Fatalf("beta's entry %+v", e)
		}
	}
}

func TestPushWithNothingIncludedIsRefused(t *testing.T) {
	_, url := bare(t)
	m := newMachine(t, "alpha")
	m.session("/w/proj", "x", 1)
	m.importOnce()
	_, err := m.syncer().Push(t.Context(), gitstore.Remote{Name: "r", URL: url}, m.source(), nil)
	if !errors.Is(err, gitstore.ErrNothingShared) {
		t.Fatalf("err %v, want ErrNothingShared", err)
	}
}

func TestBadRemotes(t *testing.T) {
	m := newMachine(t, "alpha")
	m.session("/w/proj", "x", 1)
	m.importOnce()
	_, err := m.push(gitstore.Remote{Name: "r", URL: "file://" + t.TempDir() + "/nothing-here"})
	if !errors.Is(err, gitstore.ErrTransport) {
		t.Fatalf("push to a missing repository: %v", err)
	}
	// A repository whose machine ref is not a ctx commit.
	dir, url := bare(t)
	work := t.TempDir()
	git(t, work, "init", "--quiet")
	git(t, work, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "--quiet", "--allow-empty", "-m", "code")
	git(t, work, "push", "--quiet", dir, "HEAD:refs/ctx/machines/impostor-1/active")
	_, err = m.pull(gitstore.Remote{Name: "r", URL: url})
	if !errors.Is(err, gitstore.ErrNotCtxStore) || !strings.Contains(err.Error(), "impostor-1") {
		t.Fatalf("pull of a non-ctx ref: %v", err)
	}
	if len(m.tree()) != 1 {
		t.Fatal("the local store changed")
	}
}

var _ = core.TreeEntry{}

// TestPiecedTreesTravel: machines whose trees and cursor sets are stored in
// pieces share whole views; a pull merges them into a tree in pieces of
// its own, and a second pull, with nothing new, publishes nothing.
func TestPiecedTreesTravel(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	const n = 600 // past the 512 entries a tree or cursor set keeps whole
	for i := range n {
		a.session("/w/proj", fmt.Sprintf("alpha session %d about kestrel%d", i, i), 1)
	}
	b.session("/w/proj", "beta wrote wombat", 2)
	a.importOnce()
	b.importOnce()
	src := a.source()
	for _, id := range []objects.ID{src.Generation.Tree, src.Generation.Cursors} {
		data, err := src.Objects.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		if pieces, err := core.Pieces(id, data); err != nil || len(pieces) < 2 {
			t.Fatalf("alpha's %d sessions: %d pieces (%v)", n, len(pieces), err)
		}
	}
	if rep, err := a.push(r); err != nil || !rep.Pushed || rep.Exported.Manifest.Sessions != n {
		t.Fatalf("alpha's push: %v %+v", err, rep)
	}
	if _, err := b.pull(r); err != nil {
		t.Fatal(err)
	}
	tree := b.tree()
	if len(tree) != n+1 {
		t.Fatalf("beta holds %d sessions after the pull, want %d", len(tree), n+1)
	}
	bs := b.source()
	data, err := bs.Objects.Get(bs.Generation.Tree)
	if err != nil {
		t.Fatal(err)
	}
	if pieces, err := core.Pieces(bs.Generation.Tree, data); err != nil || len(pieces) < 2 {
		t.Fatalf("beta's merged tree: %d pieces (%v)", len(pieces), err)
	}
	if len(b.search("kestrel599")) != 1 || len(b.search("wombat")) != 1 {
		t.Fatal("the pulled and the local sessions are not both found")
	}
	if rep, err := b.pull(r); err != nil || len(rep.Merged) != 0 || b.source().GenerationID != bs.GenerationID {
		t.Fatalf("second pull: %v %+v", err, rep)
	}
}
