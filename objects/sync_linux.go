//go:build linux

package objects

import (
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// openWholeSync opens the store's directory as the handle a batch syncs
// its filesystem through. It is opened before the batch writes its first
// temporary file: syncfs(2) reports the write-back errors of the whole
// filesystem recorded since its handle was opened, so an error writing
// any of the batch's files fails the commit as their own fsync would.
// Before Linux 5.8 syncfs reported none, and a filesystem that is not a
// local one of wholeSyncFS may not flush to stable storage what an fsync
// of each file would (FUSE without its syncfs request, network
// filesystems), so there, and where the directory cannot be opened, it
// returns nil and the commit fsyncs each file.
func openWholeSync(dir string) *os.File {
	if !syncfsReportsErrors() {
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	var st unix.Statfs_t
	if unix.Fstatfs(int(f.Fd()), &st) != nil || !wholeSyncFS[uint32(st.Type)] {
		f.Close()
		return nil
	}
	return f
}

// wholeSyncFS are the filesystems (statfs magic numbers) whose syncfs
// writes every dirty file and commits the journal or transaction to
// stable storage: ext2/3/4, XFS, Btrfs, F2FS, ZFS, and tmpfs, which has
// nothing to write.
var wholeSyncFS = map[uint32]bool{
	0xEF53:     true, // ext2, ext3, ext4
	0x58465342: true, // XFS
	0x9123683E: true, // Btrfs
	0xF2F52010: true, // F2FS
	0x2FC12FC1: true, // ZFS
	0x01021994: true, // tmpfs
}

// syncWhole writes every dirty page and inode of f's filesystem to the
// device and waits for them; a variable so that the tests can see when it
// is called.
var syncWhole = func(f *os.File) error {
	return unix.Syncfs(int(f.Fd()))
}

// syncfsReportsErrors reports whether the running kernel is Linux 5.8 or
// later.
var syncfsReportsErrors = sync.OnceValue(func() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	return kernelAtLeast(unix.ByteSliceToString(u.Release[:]), 5, 8)
})

// kernelAtLeast reports whether a kernel release ("6.1.0-13-amd64")
// is major.minor or later.
func kernelAtLeast(release string, major, minor int) bool {
	var got [2]int
	for i := range got {
		n := 0
		for len(release) > 0 && release[0] >= '0' && release[0] <= '9' {
			n = n*10 + int(release[0]-'0')
			release = release[1:]
		}
		got[i] = n
		if len(release) == 0 || release[0] != '.' {
			break
		}
		release = release[1:]
	}
	return got[0] > major || got[0] == major && got[1] >= minor
}
