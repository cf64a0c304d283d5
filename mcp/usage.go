package mcp

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"ctx/objects"
	"ctx/query"
	"ctx/store"
)

// Local usage accounting (spec 000). The aggregate lives in
// $CTX_HOME/usage.json (mode 0600, replaced atomically under
// $CTX_HOME/usage.lock); creating $CTX_HOME/usage.disabled turns recording
// off, removing it turns recording back on. The control is re-read before
// every record, so a change applies to the next delivered call without a
// restart. Recording has no network path, stores no arguments, results or
// history content, never creates $CTX_HOME, and fails silently.

// Usage file names inside $CTX_HOME (query's, and the writer's lock).
const (
	UsageFile         = query.UsageFile
	UsageDisabledFile = query.UsageDisabledFile
	usageLockFile     = "usage.lock"
)

// Versions of the usage aggregate (query.UsageDefinitionVersion,
// query.UsageRetentionVersion).
const (
	UsageDefinitionVersion = query.UsageDefinitionVersion
	UsageRetentionVersion  = query.UsageRetentionVersion
)

// Outcomes of a recorded call.
const (
	outcomeOK            = "ok"
	outcomeToolError     = "tool_error"
	outcomeProtocolError = "protocol_error"
)

// ToolUsage and UsageAggregate are query's.
type (
	ToolUsage      = query.ToolUsage
	UsageAggregate = query.UsageAggregate
)

// usageRecord is one delivered call: its tool, its response message, the
// bytes its delivery wrote (the stdio line with its newline; the HTTP body)
// and how long it took.
type usageRecord struct {
	tool     string
	line     []byte
	size     int64
	duration time.Duration
}

// Usage records delivered tool calls into the aggregate, off the response
// path: records are queued and written by one goroutine.
type Usage struct {
	home string
	now  func() time.Time

	mu      sync.Mutex
	queue   []usageRecord
	pending int           // records queued or being written
	drained chan struct{} // closed when pending drops to zero, then replaced
	wake    chan struct{}
	enabled bool // the last known state of the control
	started bool
}

// NewUsage returns the recorder for the store in home.
func NewUsage(home string, now func() time.Time) *Usage {
	return &Usage{home: home, now: now, wake: make(chan struct{}, 1), drained: make(chan struct{}), enabled: true}
}

// Record queues a delivered call; line is its response message, which the
// recorder owns from now on, and size the bytes its delivery wrote.
func (u *Usage) Record(tool string, line []byte, size int64, duration time.Duration) {
	u.mu.Lock()
	if !u.started {
		u.started = true
		go u.loop()
	}
	u.queue = append(u.queue, usageRecord{tool: tool, line: line, size: size, duration: duration})
	u.pending++
	u.mu.Unlock()
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// Flush waits up to d for queued records to be written.
func (u *Usage) Flush(d time.Duration) {
	u.mu.Lock()
	pending, drained := u.pending, u.drained
	u.mu.Unlock()
	if pending == 0 {
		return
	}
	select {
	case <-drained:
	case <-time.After(d):
	}
}

func (u *Usage) loop() {
	for range u.wake {
		u.mu.Lock()
		batch := u.queue
		u.queue = nil
		u.mu.Unlock()
		u.write(batch)
		u.mu.Lock()
		u.pending -= len(batch)
		if u.pending == 0 {
			close(u.drained)
			u.drained = make(chan struct{})
		}
		u.mu.Unlock()
	}
}

// Enabled re-reads the control: usage.disabled present means off, absent
// means on, and a failure to tell keeps the last known state.
func (u *Usage) Enabled() bool {
	_, err := os.Stat(store.At(u.home).UsageDisabled())
	u.mu.Lock()
	defer u.mu.Unlock()
	switch {
	case err == nil:
		u.enabled = false
	case errors.Is(err, fs.ErrNotExist):
		u.enabled = true
	}
	return u.enabled
}

// write adds a batch to the aggregate. Every failure drops the batch.
func (u *Usage) write(batch []usageRecord) {
	if len(batch) == 0 || !u.Enabled() {
		return
	}
	if fi, err := os.Stat(u.home); err != nil || !fi.IsDir() {
		return
	}
	unlock, err := lockFile(filepath.Join(u.home, usageLockFile))
	if err != nil {
		return
	}
	defer unlock()
	agg, err := readUsage(u.home)
	if errors.Is(err, fs.ErrNotExist) {
		agg, err = &UsageAggregate{DefinitionVersion: UsageDefinitionVersion,
			RetentionVersion: UsageRetentionVersion, Since: u.now().UTC(), Tools: map[string]*ToolUsage{}}, nil
	}
	if err != nil {
		return // an unreadable or foreign aggregate is left alone
	}
	for _, r := range batch {
		addRecord(agg, r)
	}
	agg.Updated = u.now().UTC()
	_ = writeUsage(u.home, agg)
}

func addRecord(a *UsageAggregate, r usageRecord) {
	t := a.Tools[r.tool]
	if t == nil {
		t = &ToolUsage{}
		a.Tools[r.tool] = t
	}
	t.Calls++
	switch responseOutcome(r.line) {
	case outcomeOK:
		t.OK++
	case outcomeToolError:
		t.ToolErrors++
	default:
		t.ProtocolErrors++
	}
	t.MCPResponseBytes += r.size
	t.DurationMS += r.duration.Milliseconds()
}

// readUsage reads the aggregate of the store in home.
func readUsage(home string) (*UsageAggregate, error) { return query.ReadUsage(home) }

// writeUsage replaces the aggregate atomically: a private temporary file,
// fsync, rename, fsync of the directory.
func writeUsage(home string, a *UsageAggregate) error {
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	if err := objects.ReplaceFile(store.At(home).Usage(), append(b, '\n')); err != nil {
		return err
	}
	return objects.SyncDir(home)
}
