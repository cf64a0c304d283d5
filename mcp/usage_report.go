package mcp

import (
	"bytes"
	"errors"
	"os"
	"syscall"
	"time"

	"ctx/query"
)

// Report returns the compact report, query's (the CLI status shows the
// same one), with the control as the server last knew it. It only reads.
func (u *Usage) Report() query.LocalUsage { return query.CompactUsage(u.home, u.Enabled()) }

// recordUsage is the transport's callback for a delivered tool response;
// the line is classified later, off the write path.
func (s *Server) recordUsage(c *call, line []byte) {
	s.usage.Record(c.tool, bytes.Clone(line), int64(len(line)), time.Since(c.start))
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
