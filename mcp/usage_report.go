package mcp

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// States of the compact local usage report.
const (
	UsageStateRecording   = "recording"   // enabled, the aggregate exists and is readable
	UsageStateEmpty       = "empty"       // enabled, nothing recorded yet
	UsageStateDisabled    = "disabled"    // usage.disabled exists
	UsageStateUnavailable = "unavailable" // enabled, but the aggregate cannot be used
)

// Content-free error codes of an unavailable aggregate.
const (
	UsageErrUnreadable = "usage_unreadable" // usage.json cannot be read
	UsageErrInvalid    = "usage_invalid"    // usage.json is damaged or of another version
)

// LocalUsage is the compact local usage report in status: enablement,
// state, the definition and retention versions, and a stable content-free
// error code when the aggregate is unavailable. It carries no counts.
type LocalUsage struct {
	Enabled           bool   `json:"enabled" jsonschema:"Whether local usage accounting records delivered tool calls."`
	State             string `json:"state" jsonschema:"recording, empty, disabled or unavailable."`
	DefinitionVersion int    `json:"definition_version" jsonschema:"Version of what is counted."`
	RetentionVersion  int    `json:"retention_version" jsonschema:"Version of how long it is kept."`
	ErrorCode         string `json:"error_code,omitempty" jsonschema:"Why the aggregate is unavailable (usage_unreadable or usage_invalid)."`
}

// Report returns the compact report. It only reads.
func (u *Usage) Report() LocalUsage {
	r := LocalUsage{Enabled: u.Enabled(), DefinitionVersion: UsageDefinitionVersion,
		RetentionVersion: UsageRetentionVersion}
	if !r.Enabled {
		r.State = UsageStateDisabled
		return r
	}
	_, err := readUsage(u.home)
	switch {
	case err == nil:
		r.State = UsageStateRecording
	case errors.Is(err, fs.ErrNotExist):
		r.State = UsageStateEmpty
	case errors.Is(err, errUsageInvalid):
		r.State, r.ErrorCode = UsageStateUnavailable, UsageErrInvalid
	default:
		r.State, r.ErrorCode = UsageStateUnavailable, UsageErrUnreadable
	}
	return r
}

// recordUsage is the transport's callback for a delivered tool response;
// the line is classified later, off the write path.
func (s *Server) recordUsage(c *call, line []byte) {
	s.usage.Record(c.tool, bytes.Clone(line), time.Since(c.start))
}

// lockTimeout bounds the wait for another server's usage write.
const lockTimeout = time.Second

// lockFile takes an exclusive flock on path, creating it (0600) when
// missing, and returns the unlock function.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(lockTimeout)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			return nil, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}
