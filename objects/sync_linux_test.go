package objects

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

func TestKernelAtLeast(t *testing.T) {
	for _, c := range []struct {
		release string
		want    bool
	}{
		{"5.8.0", true}, {"5.7.19", false}, {"6.1.0-13-amd64", true}, {"5.10", true},
		{"4.19.0", false}, {"5", false}, {"", false}, {"5.15.0-1051-azure", true}, {"10.0", true},
	} {
		if got := kernelAtLeast(c.release, 5, 8); got != c.want {
			t.Errorf("kernelAtLeast(%q, 5, 8) = %v, want %v", c.release, got, c.want)
		}
	}
}

// BenchmarkCommit writes and commits batches of 6 KB objects (about an
// import's chunk), synced file by file and with the filesystem syncs; the
// CPU of the commit's kernel work outside the process (write-back threads,
// the journal's) shows only in the machine's figures, so compare
// those too. commit-cpu-µs/object is the process's CPU in Commit alone.
func BenchmarkCommit(b *testing.B) {
	for _, c := range []struct {
		name string
		min  int
	}{{"file", 1 << 30}, {"whole", wholeSyncMin}} {
		b.Run(c.name, func(b *testing.B) {
			real := wholeSyncMin
			b.Cleanup(func() { wholeSyncMin = real })
			wholeSyncMin = c.min
			s, err := Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			const perBatch = 1000
			data := make([]byte, 6<<10)
			n := 0
			var commit time.Duration
			for i := 0; i < b.N; i++ {
				batch := s.NewBatch()
				for j := 0; j < perBatch; j++ {
					n++
					for k := range data {
						data[k] = byte(n*31 + k*k) // poorly compressible, distinct per object
					}
					copy(data, fmt.Sprint(n))
					if _, err := batch.Put(data); err != nil {
						b.Fatal(err)
					}
				}
				c0 := processCPU()
				if err := batch.Commit(); err != nil {
					b.Fatal(err)
				}
				commit += processCPU() - c0
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(n), "wall-µs/object")
			b.ReportMetric(float64(commit.Microseconds())/float64(n), "commit-cpu-µs/object")
		})
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A filesystem outside wholeSyncFS (procfs here) gets no handle: its
// batches fsync each file.
func TestWholeSyncOnlyOnKnownFilesystems(t *testing.T) {
	if f := openWholeSync("/proc"); f != nil {
		f.Close()
		t.Fatal("a filesystem sync handle on procfs")
	}
}
