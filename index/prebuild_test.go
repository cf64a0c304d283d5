package index

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A cleanup beside builders (a merge building while an import takes the
// store lock) must never remove a build directory a builder is creating:
// the directory is locked before it gets its build name.
func TestCleanBuildsBesideBuilders(t *testing.T) {
	root := t.TempDir()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				if _, err := CleanBuilds(root); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	for i := range 300 {
		dir := filepath.Join(root, buildPrefix+"b"+time.Now().Format("150405.000000000"))
		f, err := lockBuildDir(dir)
		if err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("build %d: a cleanup removed the locked build directory: %v", i, err)
		}
		f.Close() // the build ends unsealed: its directory is now a leftover
	}
	close(stop)
	wg.Wait()
}

// An unlocked prebuild directory is in flight for a moment, then a
// leftover.
func TestPrebuildLeftovers(t *testing.T) {
	root := t.TempDir()
	young := filepath.Join(root, prebuildPrefix+"young")
	old := filepath.Join(root, prebuildPrefix+"old")
	for _, d := range []string{young, old} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * prebuildAge)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	if !InFlight(root, filepath.Base(young)) || InFlight(root, filepath.Base(old)) {
		t.Fatal("a fresh prebuild directory is in flight, an old unlocked one is not")
	}
	got, err := CleanBuilds(root)
	if err != nil || got.Dirs != 1 {
		t.Fatalf("CleanBuilds = %+v, %v; want the old prebuild removed", got, err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Fatal("the fresh prebuild directory was removed")
	}
}
