package ingest_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"ctx/ingest"
	"ctx/maint"
	"ctx/objects"
	"ctx/refs"
	ctxstore "ctx/store"
)

// TestInterruptedImportResumes: a first import stopped halfway keeps what
// its checkpoints published, and the next import reads only the files no
// checkpoint covered, ending with the same history as one uninterrupted
// import.
func TestInterruptedImportResumes(t *testing.T) {
	f := newFixture(t, 3000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := ingest.Run(ctx, ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(), Version: "test",
		Workers: 1, CheckpointEvents: 1, // a checkpoint after every file
		Progress: func(p ingest.Progress) {
			if p.FilesDone == p.FilesTotal/2 {
				cancel() // the import is stopped halfway
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped import: %v, want context.Canceled", err)
	}
	kept := keptGeneration(t, f.store)
	if kept == nil || kept.Sessions == 0 {
		t.Fatal("the stopped import kept nothing")
	}
	v, err := maint.Verify(f.store)
	if err != nil || !v.OK {
		t.Fatalf("verify after the stop: %+v %v", v, err)
	}

	rep := f.importOnce(t)
	if !rep.Published || rep.FilesRead == 0 || rep.FilesRead >= rep.FilesSeen {
		t.Fatalf("resumed import read %d of %d files, want only those the checkpoints missed", rep.FilesRead, rep.FilesSeen)
	}
	whole := &fixture{home: f.home, store: filepath.Join(t.TempDir(), "whole")}
	once := whole.importOnce(t)
	if got, want := rep.Generation.Events, once.Generation.Events; got != want || rep.Generation.Sessions != once.Generation.Sessions {
		t.Fatalf("resumed history: %d sessions, %d events; one import: %d sessions, %d events",
			rep.Generation.Sessions, got, once.Generation.Sessions, want)
	}
	assertNoDuplicateHits(t, f.store)
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify after resuming: %+v %v", v, err)
	}
}

// TestCheckpointsOfOneImport: a long import publishes generations as it
// goes, each one's parent the one before, and reports how many.
func TestCheckpointsOfOneImport(t *testing.T) {
	f := newFixture(t, 3000)
	rep, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(),
		Version: "test", Workers: 2, CheckpointEvents: 500})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Checkpoints == 0 || rep.Generation.Number != uint64(rep.Checkpoints)+1 {
		t.Fatalf("%d checkpoints, last generation %d", rep.Checkpoints, rep.Generation.Number)
	}
	if rep.EventsIndexed != rep.EventsRead || rep.Generation.Events != rep.EventsRead {
		t.Fatalf("read %d events, indexed %d, generation holds %d", rep.EventsRead, rep.EventsIndexed, rep.Generation.Events)
	}
	assertNoDuplicateHits(t, f.store)
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
}

// TestNoCheckpointJustBeforeTheEnd: a checkpoint falls due when most of
// an import is read, but what is left is a sliver of it: the run publishes
// once, at its end. Due halfway, it checkpoints.
func TestNoCheckpointJustBeforeTheEnd(t *testing.T) {
	f := newFixture(t, 3000)
	all := f.importOnce(t).EventsRead
	for _, tc := range []struct {
		every       int
		checkpoints int
	}{{all * 97 / 100, 0}, {all / 2, 1}} {
		store := filepath.Join(t.TempDir(), "store")
		rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: f.env(), Sources: automatic(),
			Version: "test", Workers: 1, CheckpointEvents: tc.every})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Checkpoints != tc.checkpoints || rep.EventsRead != all || rep.Generation.Events != all {
			t.Fatalf("due at %d of %d events: %d checkpoints (want %d), read %d, generation holds %d",
				tc.every, all, rep.Checkpoints, tc.checkpoints, rep.EventsRead, rep.Generation.Events)
		}
	}
}

// storeObjects opens the object store of the store in home.
func storeObjects(t testing.TB, store string) *objects.Store {
	t.Helper()
	objs, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func keptGeneration(t testing.TB, store string) *refs.Generation {
	t.Helper()
	objs := storeObjects(t, store)
	id, err := refs.OpenExisting(store).Get(refs.Active)
	if errors.Is(err, refs.ErrNoRef) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	g, err := refs.Load(objs, id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
