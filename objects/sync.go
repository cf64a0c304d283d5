package objects

import (
	"os"
	"sync"
)

// wholeSyncMin is the fewest new objects a commit makes durable with one
// sync of the store's filesystem instead of an fsync per file. Each fsync
// writes its file and flushes the device's cache on its own, about 170 µs
// of the process's CPU for a 6 KB object against about 35 µs for the
// filesystem syncs (BenchmarkCommit); but a filesystem sync also writes
// whatever else is dirty on the filesystem, so below this the files are
// synced one by one. A variable for the tests.
var wholeSyncMin = 32

// syncFile fsyncs a temporary object file; a variable so that the tests
// can see when it is called.
var syncFile = func(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func parallel(ids []ID, fn func(ID) error) error {
	const workers = 8
	ch := make(chan ID)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var first error
			for id := range ch {
				if err := fn(id); err != nil && first == nil {
					first = err
				}
			}
			errs <- first
		}()
	}
	for _, id := range ids {
		ch <- id
	}
	close(ch)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
