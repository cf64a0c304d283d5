package query

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpenCreatesNothing(t *testing.T) {
	home := filepath.Join(t.TempDir(), "store")
	if _, err := Open(home); CodeOf(err) != CodeNoHistory {
		t.Fatalf("Open on a missing store: %v", err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("Open created %s", home)
	}
	st, err := ReadStatus(home)
	if err != nil || st.Generation != nil {
		t.Fatalf("ReadStatus: %+v %v", st, err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("ReadStatus created %s", home)
	}
}

// TestOpenWritesNothingInAStore checks that pinning a generation and reading
// through it leave an existing store as it was: no directory is recreated.
func TestOpenWritesNothingInAStore(t *testing.T) {
	src := synthStore(t, 30)
	home := filepath.Join(t.TempDir(), "store")
	if err := os.CopyFS(home, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"objects/tmp", "logs"} {
		if err := os.RemoveAll(filepath.Join(home, d)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Tree(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	for _, d := range []string{"objects/tmp", "logs"} {
		if _, err := os.Stat(filepath.Join(home, d)); !os.IsNotExist(err) {
			t.Errorf("reading recreated %s", d)
		}
	}
	// An active generation without objects is a damaged store, not an empty one.
	if err := os.RemoveAll(filepath.Join(home, "objects")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(home); CodeOf(err) != CodeCorrupt {
		t.Fatalf("Open without objects: %v", err)
	}
}
