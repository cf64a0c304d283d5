package maint_test

import (
	"os"
	"path/filepath"
	"testing"

	"ctx/internal/corpus"
	"ctx/maint"
)

// damagedStore imports a generated history twice (two generations) and
// returns the store.
func damagedStore(t *testing.T) string {
	t.Helper()
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	if _, err := corpus.Generate(home, corpus.Options{Events: 400, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	importAll(t, home, store)
	if _, err := corpus.Generate(filepath.Join(home, "more"), corpus.Options{Events: 100, Seed: 6}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(home, "more", ".claude", "projects"), filepath.Join(home, ".claude", "projects", "more")); err != nil {
		t.Fatal(err)
	}
	importAll(t, home, store)
	if v, err := maint.Verify(store); err != nil || !v.OK {
		t.Fatalf("verify before damage: %+v %v", v, err)
	}
	return store
}

// TestVerifySeesDamagedIndexAndRefs: the cases verify passed as ok — a
// flipped byte in a zap segment, root.bolt or index_meta.json, a deleted
// or truncated reflog, a deleted refs/active — are all damage now.
func TestVerifySeesDamagedIndexAndRefs(t *testing.T) {
	store := damagedStore(t)
	zaps, _ := filepath.Glob(filepath.Join(store, "index", "*", "store", "*.zap"))
	bolts, _ := filepath.Glob(filepath.Join(store, "index", "*", "store", "root.bolt"))
	metas, _ := filepath.Glob(filepath.Join(store, "index", "*", "index_meta.json"))
	if len(zaps) == 0 || len(bolts) == 0 || len(metas) == 0 {
		t.Fatal("no shard files")
	}
	reflog := filepath.Join(store, "logs", "refs", "active")
	active := filepath.Join(store, "refs", "active")
	flip := func(p string, at int) func([]byte) []byte {
		return func(b []byte) []byte { b[at%len(b)] ^= 0x01; return b }
	}
	cases := []struct {
		name, path string
		damage     func([]byte) []byte // nil: delete the file
	}{
		{"zap byte", zaps[0], nil},
		{"root.bolt byte", bolts[0], nil},
		{"index_meta byte", metas[0], nil},
		{"reflog cut", reflog, func(b []byte) []byte { return b[:len(b)/2] }},
		{"reflog deleted", reflog, nil},
		{"active deleted", active, nil},
	}
	for i := range 3 {
		p := cases[i].path
		cases[i].damage = flip(p, 1000+i*37)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.WriteFile(c.path, orig, 0o600) })
			if c.damage == nil {
				err = os.Remove(c.path)
			} else {
				err = os.WriteFile(c.path, c.damage(append([]byte(nil), orig...)), 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			v, err := maint.Verify(store)
			if err != nil {
				return // an error is not "ok" either
			}
			if v.OK {
				t.Fatalf("verify says ok")
			}
		})
	}
}
