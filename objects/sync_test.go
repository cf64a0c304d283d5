package objects

import (
	"fmt"
	"os"
	"sync/atomic"
	"testing"
)

// TestCommitSyncsBeforeNaming: Commit gives no object its name before its
// bytes are synced, and returns only after syncing the names. The real
// syncs run; the test only watches when they are called: a large batch
// syncs the filesystem twice where it can (once before any rename, once
// after all), a small one fsyncs each file before any rename.
func TestCommitSyncsBeforeNaming(t *testing.T) {
	for _, n := range []int{3, wholeSyncMin + 8} {
		t.Run(fmt.Sprint(n, " objects"), func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			b := s.NewBatch()
			var ids []ID
			for i := 0; i < n; i++ {
				id, err := b.Put([]byte(fmt.Sprintf("object %d of a batch", i)))
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			}
			visible := func() int {
				c := 0
				for _, id := range ids {
					if s.Has(id) {
						c++
					}
				}
				return c
			}
			realWhole, realFile := syncWhole, syncFile
			t.Cleanup(func() { syncWhole, syncFile = realWhole, realFile })
			var wholeSeen []int
			var files atomic.Int64 // fsyncs run on several goroutines
			syncWhole = func(f *os.File) error {
				wholeSeen = append(wholeSeen, visible())
				return realWhole(f)
			}
			syncFile = func(p string) error {
				files.Add(1)
				if v := visible(); v != 0 {
					t.Errorf("%d objects named before a file was synced", v)
				}
				return realFile(p)
			}
			whole := openWholeSync(s.Dir())
			if whole != nil {
				whole.Close()
			}
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
			if visible() != n {
				t.Fatalf("%d of %d objects visible after the commit", visible(), n)
			}
			switch {
			case whole != nil && n >= wholeSyncMin:
				if files.Load() != 0 || len(wholeSeen) != 2 || wholeSeen[0] != 0 || wholeSeen[1] != n {
					t.Fatalf("file syncs %d, filesystem syncs with objects visible %v; want none, then [0 %d]", files.Load(), wholeSeen, n)
				}
			default:
				if files.Load() != int64(n) || len(wholeSeen) != 0 {
					t.Fatalf("file syncs %d, filesystem syncs %d; want %d and none", files.Load(), len(wholeSeen), n)
				}
			}
			if b.whole != nil {
				t.Fatal("the filesystem handle stays open after the commit")
			}
		})
	}
}

// A file written before the batch's current filesystem handle was opened
// (a Put racing a Commit, which closes the handle, and a later Put, which
// opens another) is fsynced on its own: a handle reports only the errors
// after its opening.
func TestCommitFileBeforeHandleSyncedAlone(t *testing.T) {
	s, _ := Open(t.TempDir())
	b := s.NewBatch()
	for i := 0; i < wholeSyncMin; i++ {
		if _, err := b.Put([]byte(fmt.Sprint("object ", i))); err != nil {
			t.Fatal(err)
		}
	}
	if b.whole == nil {
		t.Skip("no filesystem sync here")
	}
	if b.perFile {
		t.Fatal("files written under the current handle turned the batch to per-file syncs")
	}
	realWrite, realFile := writeTemp, syncFile
	t.Cleanup(func() { writeTemp, syncFile = realWrite, realFile })
	writeTemp = func(f *os.File, data []byte) error {
		b.mu.Lock()
		b.closeWhole()
		b.whole = openWholeSync(s.Dir())
		b.mu.Unlock()
		return realWrite(f, data)
	}
	if _, err := b.Put([]byte("written under a handle since replaced")); err != nil {
		t.Fatal(err)
	}
	var files atomic.Int64
	syncFile = func(p string) error { files.Add(1); return realFile(p) }
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if files.Load() != int64(wholeSyncMin+1) {
		t.Fatalf("%d files fsynced, want %d", files.Load(), wholeSyncMin+1)
	}
}
