package index

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// shardFiles lists the files of a shard, relative to it.
func shardFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("shard files %v: %v", out, err)
	}
	return out
}

// TestDamagedShardIsTypedNeverAPanic cuts each file of a shard in half in
// turn: opening and verifying it is a ShardError wrapping ErrShardDamaged
// that names the shard, never a panic (bolt asserts on a cut root.bolt).
func TestDamagedShardIsTypedNeverAPanic(t *testing.T) {
	root := t.TempDir()
	metas := build(t, root, manyDocs(300), BuildOptions{Shards: 1})
	m := metas[0]
	dir := filepath.Join(root, m.Name)
	for _, rel := range shardFiles(t, dir) {
		t.Run(rel, func(t *testing.T) {
			p := filepath.Join(dir, rel)
			orig, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.WriteFile(p, orig, 0o600) })
			if err := os.WriteFile(p, orig[:len(orig)/2], 0o600); err != nil {
				t.Fatal(err)
			}
			err = VerifyShard(root, m)
			var se *ShardError
			if !errors.Is(err, ErrShardDamaged) || !errors.As(err, &se) || se.Shard != m.Name {
				t.Fatalf("verify %s cut in half: %v", rel, err)
			}
			r, err := Open(root, []string{m.Name})
			if err == nil {
				r.Close()
				t.Fatalf("open %s cut in half: no error", rel)
			}
			if !errors.Is(err, ErrShardDamaged) || !errors.As(err, &se) || se.Shard != m.Name {
				t.Fatalf("open %s cut in half: %v", rel, err)
			}
		})
	}
}

// TestCutRootBoltWithoutSums: a shard sealed before checksums existed has
// no size check at open; a cut root.bolt makes bolt panic inside bleve,
// which Open turns into ErrShardDamaged.
func TestCutRootBoltWithoutSums(t *testing.T) {
	root := t.TempDir()
	m := build(t, root, manyDocs(300), BuildOptions{Shards: 1})[0]
	dir := filepath.Join(root, m.Name)
	if err := os.Remove(filepath.Join(dir, SumsFile)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "store", "root.bolt")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Open(root, []string{m.Name})
	if !errors.Is(err, ErrShardDamaged) {
		t.Fatalf("open: %v", err)
	}
	if err := Verify(root, m.Name, m.Docs); !errors.Is(err, ErrShardDamaged) {
		t.Fatalf("verify: %v", err)
	}
}

// TestBoltSizeCheck: every cut of root.bolt at a page boundary short of the
// pages its meta counts is refused before bolt maps it (reading past the end
// of a mapped file is a SIGBUS, not a panic), and the whole file passes.
func TestBoltSizeCheck(t *testing.T) {
	root := t.TempDir()
	m := build(t, root, manyDocs(300), BuildOptions{Shards: 1})[0]
	dir := filepath.Join(root, m.Name)
	p := filepath.Join(dir, "store", "root.bolt")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkBoltSize(dir); err != nil {
		t.Fatalf("whole root.bolt: %v", err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := newestBoltMeta(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	page := int(meta.pageSize)
	need := int(meta.pgid) * page
	if need > len(data) || need < 4*page {
		t.Fatalf("root.bolt holds %d bytes, its meta counts %d", len(data), need)
	}
	t.Cleanup(func() { _ = os.WriteFile(p, data, 0o600) })
	for _, n := range []int{need, need - page, need / 2, 2 * page, page + 10, 100} {
		if err := os.WriteFile(p, data[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		err := checkBoltSize(dir)
		if n == need && err != nil {
			t.Fatalf("root.bolt cut to the %d bytes its meta counts: %v", n, err)
		}
		if n < need && err == nil {
			t.Fatalf("root.bolt cut to %d of the %d bytes its meta counts passed", n, need)
		}
	}
}
