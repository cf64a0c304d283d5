package store_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"ctx/objects"
	"ctx/refs"
	"ctx/store"
)

// snapshot lists every path under dir with its mode and size.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.Mode().String() + " " + fi.ModTime().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWriterCreatesPrivateLayout(t *testing.T) {
	home := filepath.Join(t.TempDir(), "ctx")
	w, err := store.OpenWriter(context.Background(), home, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	l := store.At(home)
	for _, d := range []string{home, l.Objects(), l.Refs()} {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v, want a 0700 directory", d, fi, err)
		}
	}
	for _, f := range []string{l.WriterLock(), l.CursorKey()} {
		fi, err := os.Stat(f)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v, want a 0600 file", f, fi, err)
		}
	}
	if _, err := store.OpenWriter(context.Background(), home, nil); !errors.Is(err, store.ErrBusy) {
		t.Fatalf("second writer: %v, want ErrBusy", err)
	}
}

func TestReadOnlyCreatesNothing(t *testing.T) {
	if _, err := store.OpenReadOnly(filepath.Join(t.TempDir(), "none")); !errors.Is(err, store.ErrNoStore) {
		t.Fatalf("missing store: %v, want ErrNoStore", err)
	}
	home := filepath.Join(t.TempDir(), "ctx")
	w, err := store.OpenWriter(context.Background(), home, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := w.Objects.Put([]byte("generation stand-in"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Refs.Update(refs.Active, objects.ID{}, id, "test"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	// The reflog directory is what a reader used to recreate on every page.
	if err := os.RemoveAll(filepath.Join(home, "logs")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, home)
	chmodTree(t, home, 0o500, 0o400)
	t.Cleanup(func() { chmodTree(t, home, 0o700, 0o600) })

	ro, err := store.OpenReadOnly(home)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ro.Refs.Get(refs.Active)
	if err != nil || got != id {
		t.Fatalf("active: %v %v", got, err)
	}
	if b, err := ro.Objects.Get(id); err != nil || string(b) != "generation stand-in" {
		t.Fatalf("object: %q %v", b, err)
	}
	if _, err := ro.ReadCursorKey(); err != nil {
		t.Fatalf("cursor key: %v", err)
	}
	chmodTree(t, home, 0o700, 0o600)
	after := snapshot(t, home)
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("a reader created %s", p)
		}
	}
}

// chmodTree sets the mode of every directory and file under dir (a root
// test process ignores the modes, so the snapshot comparison is the check
// that holds everywhere).
func chmodTree(t *testing.T, dir string, dirMode, fileMode os.FileMode) {
	t.Helper()
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			_ = os.Chmod(p, 0o700)
			return nil
		}
		return os.Chmod(p, fileMode)
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Chmod(dirs[i], dirMode)
	}
}
