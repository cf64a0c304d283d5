package ingest

import (
	"context"
	"fmt"
	"maps"
	"reflect"

	"ctx/core"
	"ctx/refs"
	"ctx/store"
)

// SetPendingObjects bounds the objects a run leaves uncommitted to n for
// a test, and returns the restore.
func SetPendingObjects(n int) (restore func()) {
	old := pendingObjects
	pendingObjects = n
	return func() { pendingObjects = old }
}

// KeptStateMatches reports whether the state this process keeps for its
// next import answers for the store's active generation (by its id, or by
// naming the same content), and fails when that state is not what
// decoding the generation gives.
func KeptStateMatches(home string) (kept bool, err error) {
	w, err := store.OpenWriter(context.Background(), home, nil)
	if err != nil {
		return false, err
	}
	defer w.Close()
	id, err := w.Refs.Get(refs.Active)
	if err != nil {
		return false, err
	}
	g, err := refs.Load(w.Objects, id)
	if err != nil {
		return false, err
	}
	cached := loadedState(id, false)
	if cached == nil {
		cached = loadedSame(id, g, false)
	}
	if cached == nil {
		return false, nil
	}
	lastLoaded.Lock()
	saved := lastLoaded.st
	lastLoaded.st = nil
	lastLoaded.Unlock()
	fresh, err := loadState(w.Objects, w.Refs, false)
	lastLoaded.Lock()
	lastLoaded.st = saved
	lastLoaded.Unlock()
	if err != nil {
		return true, err
	}
	switch {
	case cached.prevID != fresh.prevID || cached.number != fresh.number || !reflect.DeepEqual(cached.prev, fresh.prev):
		return true, fmt.Errorf("kept generation %s (%d), decoded %s (%d)", cached.prevID, cached.number, fresh.prevID, fresh.number)
	case !reflect.DeepEqual(cached.tree, fresh.tree):
		return true, fmt.Errorf("kept tree of %d sessions, decoded %d", len(cached.tree), len(fresh.tree))
	case !reflect.DeepEqual(cached.cursors, fresh.cursors):
		return true, fmt.Errorf("kept %d cursors, decoded %d", len(cached.cursors), len(fresh.cursors))
	case !maps.Equal(cached.tombs, fresh.tombs) || !maps.Equal(cached.tombNew, fresh.tombNew) ||
		!reflect.DeepEqual(cached.tombBase, fresh.tombBase) || cached.baseLen != fresh.baseLen:
		return true, fmt.Errorf("kept tombstones differ from the decoded ones")
	case !reflect.DeepEqual(cached.forgotten, fresh.forgotten) || len(cached.discover) != 0:
		return true, fmt.Errorf("kept forgotten set or problems differ")
	}
	return true, nil
}

// ForgetKept drops the state this process keeps, as a new process starts
// without one.
func ForgetKept() {
	lastLoaded.Lock()
	lastLoaded.st = nil
	lastLoaded.Unlock()
}

// SetLiveMinBytes sets the size from which a transcript's parse is held
// open for a test, and returns the restore.
func SetLiveMinBytes(n int64) (restore func()) {
	old := liveMinBytes
	liveMinBytes = n
	return func() { liveMinBytes = old }
}

// AddTombstones publishes a generation whose tombstones are the active
// one's and set, as a store from before merges dropped any could hold.
func AddTombstones(home string, set map[core.EventID]uint64) error {
	r, rs, unlock, err := begin(context.Background(), Options{Home: home, Version: "test"})
	if err != nil {
		return err
	}
	defer unlock()
	for id, gen := range set {
		r.st.setTomb(id, gen)
	}
	return r.publishTombstones(rs, "test: tombstones added")
}
