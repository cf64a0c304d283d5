package gitstore_test

import (
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/gitstore"
)

func TestExportWritesAGitNativeCommitPerGeneration(t *testing.T) {
	m := newMachine(t, "laptop")
	native := m.session("/w/proj", "first prompt", 70) // two chunks
	m.importOnce()
	mr := m.mirror("origin")
	rep, err := mr.Export(m.source(), gitstore.ExportOptions{Machine: m.id, Include: all, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Changed || rep.Manifest.Sessions != 1 || rep.Manifest.Events != 70 {
		t.Fatalf("first export: %+v", rep)
	}
	// tree + session + 2 chunks
	if rep.NewObjects != 4 || rep.Manifest.Objects != 4 {
		t.Fatalf("objects: new %d, total %d, want 4", rep.NewObjects, rep.Manifest.Objects)
	}
	git(t, mr.Dir, "fsck", "--strict", "--no-dangling")
	ls := git(t, mr.Dir, "ls-tree", "-r", "--name-only", gitstore.MachineRef(m.id).String())
	if !strings.Contains(ls, "ctx-sync\n") || !strings.Contains(ls, "manifest\n") || strings.Count(ls, "objects/") != 4 {
		t.Fatalf("tree:\n%s", ls)
	}

	again, err := mr.Export(m.source(), gitstore.ExportOptions{Machine: m.id, Include: all, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed || again.Commit != rep.Commit {
		t.Fatalf("unchanged view made a commit: %+v", again)
	}

	m.appendSession(native, "/w/proj", "first prompt", 70, 75)
	m.importOnce()
	inc, err := mr.Export(m.source(), gitstore.ExportOptions{Machine: m.id, Include: all, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	// a new tail chunk, session object and view tree; the first chunk is kept
	if !inc.Changed || inc.Parent != rep.Commit || inc.NewObjects != 3 || inc.Manifest.Objects != 4 || inc.Manifest.Events != 75 {
		t.Fatalf("incremental export: %+v", inc)
	}
	git(t, mr.Dir, "fsck", "--strict", "--no-dangling")
	if n := strings.Count(git(t, mr.Dir, "rev-list", gitstore.MachineRef(m.id).String()), "\n"); n != 2 {
		t.Fatalf("history: %d commits, want 2", n)
	}

	snap, err := mr.Snapshot(inc.Commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := snap.Tree()
	if err != nil {
		t.Fatal(err)
	}
	so, err := core.LoadSession(snap, tree.Sessions[0].Object)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := core.LoadEvents(snap, so)
	if err != nil || len(evs) != 75 || evs[74].Text != "first prompt 74" {
		t.Fatalf("events read back: %d, %v", len(evs), err)
	}
}

func TestExportSharesOnlyTheIncludedView(t *testing.T) {
	m := newMachine(t, "laptop")
	m.session("/w/shared", "shared words", 3)
	m.session("/w/private", "private words", 3)
	m.importOnce()
	mr := m.mirror("origin")
	in := func(e core.TreeEntry) bool { return e.Workspace == "/w/shared" }
	rep, err := mr.Export(m.source(), gitstore.ExportOptions{Machine: m.id, Include: in, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Manifest.Sessions != 1 {
		t.Fatalf("sessions shared: %d", rep.Manifest.Sessions)
	}
	if !readable(t, mr.Dir, "shared words") || readable(t, mr.Dir, "private words") {
		t.Fatal("the view is not what was included")
	}
}

func TestEncryptedExportHoldsNoReadableText(t *testing.T) {
	m := newMachine(t, "laptop")
	m.session("/w/proj", "planted-secret-phrase", 3)
	m.importOnce()
	key, err := gitstore.EnsureKey(m.ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	mr := m.mirror("vault")
	rep, err := mr.Export(m.source(), gitstore.ExportOptions{Machine: m.id, Include: all, Key: key, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if readable(t, mr.Dir, "planted-secret-phrase") || readable(t, mr.Dir, "/w/proj") {
		t.Fatal("planted text readable in an encrypted mirror")
	}
	if _, err := mr.Snapshot(rep.Commit, nil); err != gitstore.ErrNoKey {
		t.Fatalf("read without the key: %v, want ErrNoKey", err)
	}
	other, err := gitstore.EnsureKey(t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mr.Snapshot(rep.Commit, other); err != gitstore.ErrNoKey {
		t.Fatalf("read with another key: %v, want ErrNoKey", err)
	}
	snap, err := mr.Snapshot(rep.Commit, key)
	if err != nil {
		t.Fatal(err)
	}
	if tree, err := snap.Tree(); err != nil || len(tree.Sessions) != 1 {
		t.Fatalf("read with the key: %v", err)
	}
	plain := m.mirror("plain")
	if _, err := plain.Export(m.source(), gitstore.ExportOptions{Machine: m.id, Include: all, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if !readable(t, plain.Dir, "planted-secret-phrase") {
		t.Fatal("the check cannot see text in a plain mirror: it proves nothing")
	}
}
