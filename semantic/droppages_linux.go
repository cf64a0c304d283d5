package semantic

import "syscall"

// dropPages lets go of the pages of a mapping that have been read: they
// stay in the page cache and are mapped again when read again, but stop
// counting in the process's resident memory.
func dropPages(data []byte) {
	if len(data) > 0 {
		_ = syscall.Madvise(data, syscall.MADV_DONTNEED)
	}
}
