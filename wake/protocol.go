package wake

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"

	"ctx/store"
	"ctx/wake/wire"
)

// The protocol's messages are declared in package wire, which the ctx
// front links alone.
const MaxRequest = wire.MaxRequest

type (
	Request   = wire.Request
	Reply     = wire.Reply
	Repair    = wire.Repair
	Collected = wire.Collected
	RunOutput = wire.RunOutput
)

// LockedPID returns the pid written in the daemon lock when that process
// is alive, else 0. It never touches the flock, so it cannot make a daemon
// that is starting believe another one runs.
func LockedPID(home string) int {
	data, err := os.ReadFile(store.At(home).DaemonLock())
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid <= 0 {
		return 0
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return 0
	}
	return pid
}
