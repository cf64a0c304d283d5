package wake

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"ctx/store"
)

// Request is one wake-protocol request.
type Request struct {
	Op string `json:"op"` // sync, status or stop
}

// Reply is the answer to a request; fields not used by the op are empty.
type Reply struct {
	OK             bool      `json:"ok"`
	Error          string    `json:"error,omitempty"`
	Generation     uint64    `json:"generation,omitempty"`
	Published      bool      `json:"published,omitempty"`
	FilesRead      int       `json:"files_read,omitempty"`
	EventsIndexed  int       `json:"events_indexed,omitempty"`
	PID            int       `json:"pid,omitempty"`
	Started        time.Time `json:"started,omitzero"`
	LastGeneration uint64    `json:"last_generation,omitempty"`
	LastImport     time.Time `json:"last_import,omitzero"`
	LagSeconds     float64   `json:"lag_seconds"`
	Watching       int       `json:"watching,omitempty"`
}

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
