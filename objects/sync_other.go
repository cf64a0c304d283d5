//go:build !linux

package objects

import (
	"errors"
	"os"
)

// openWholeSync returns nil: without syncfs(2) a batch fsyncs each file.
func openWholeSync(string) *os.File { return nil }

var syncWhole = func(*os.File) error { return errors.New("objects: no filesystem sync") }
