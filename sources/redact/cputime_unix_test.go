//go:build unix

package redact

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used: benchmark figures that do
// not depend on how busy the machine is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
