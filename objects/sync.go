package objects

import (
	"os"
	"sync"
)

// wholeSyncMin is the fewest new objects a commit makes durable with one
// sync of the store's filesystem instead of an fsync per file. An fsync
// of a small file costs several times the file's creation in CPU (a
// journal commit each, on ext4), while a filesystem sync costs little per
// file but also writes whatever else is dirty on the filesystem: below
// this, the files are synced one by one. A variable for the tests.
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
