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
)

// Local usage accounting (spec 000). The aggregate lives in
// $CTX_HOME/usage.json (mode 0600, replaced atomically under
// $CTX_HOME/usage.lock); creating $CTX_HOME/usage.disabled turns recording
// off, removing it turns recording back on. The control is re-read before
// every record, so a change applies to the next delivered call without a
// restart. Recording has no network path, stores no arguments, results or
// history content, never creates $CTX_HOME, and fails silently.

// Usage file names inside $CTX_HOME.
const (
	UsageFile         = "usage.json"
	UsageDisabledFile = "usage.disabled"
	usageLockFile     = "usage.lock"
)

// Versions of the usage aggregate: what is counted (definition) and how
// long it is kept (retention).
const (
	// UsageDefinitionVersion 1: recognized tools/call requests only, counted
	// after the response line was written and flushed, per tool: calls,
	// outcomes (ok, tool_error, protocol_error), mcp_response_bytes (the
	// serialized JSON-RPC response line including its newline) and the
	// duration from reading the request to flushing the response.
	UsageDefinitionVersion = 1
	// UsageRetentionVersion 1: cumulative counters since the file was
	// created; no per-call records are kept.
	UsageRetentionVersion = 1
)

// Outcomes of a recorded call.
const (
	outcomeOK            = "ok"
	outcomeToolError     = "tool_error"
	outcomeProtocolError = "protocol_error"
)

// ToolUsage are the counters of one tool.
type ToolUsage struct {
	Calls            int64 `json:"calls"`
	OK               int64 `json:"ok"`
	ToolErrors       int64 `json:"tool_errors"`
	ProtocolErrors   int64 `json:"protocol_errors"`
	MCPResponseBytes int64 `json:"mcp_response_bytes"`
	DurationMS       int64 `json:"duration_ms"`
}

// UsageAggregate is the content of usage.json.
type UsageAggregate struct {
	DefinitionVersion int                   `json:"definition_version"`
	RetentionVersion  int                   `json:"retention_version"`
	Since             time.Time             `json:"since"`
	Updated           time.Time             `json:"updated"`
	Tools             map[string]*ToolUsage `json:"tools"`
}

// usageRecord is one delivered call: its tool, its response line (newline
// included) and how long it took.
type usageRecord struct {
	tool     string
	line     []byte
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

// Record queues a delivered call; line is its response line, which the
// recorder owns from now on.
func (u *Usage) Record(tool string, line []byte, duration time.Duration) {
	u.mu.Lock()
	if !u.started {
		u.started = true
		go u.loop()
	}
	u.queue = append(u.queue, usageRecord{tool: tool, line: line, duration: duration})
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
	_, err := os.Stat(filepath.Join(u.home, UsageDisabledFile))
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
		agg.add(r)
	}
	agg.Updated = u.now().UTC()
	_ = writeUsage(u.home, agg)
}

func (a *UsageAggregate) add(r usageRecord) {
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
	t.MCPResponseBytes += int64(len(r.line))
	t.DurationMS += r.duration.Milliseconds()
}

// errUsageInvalid marks an aggregate this version cannot use.
var errUsageInvalid = errors.New("usage aggregate is not valid")

// readUsage reads the aggregate of the store in home.
func readUsage(home string) (*UsageAggregate, error) {
	b, err := os.ReadFile(filepath.Join(home, UsageFile))
	if err != nil {
		return nil, err
	}
	var a UsageAggregate
	if json.Unmarshal(b, &a) != nil || a.DefinitionVersion != UsageDefinitionVersion ||
		a.RetentionVersion != UsageRetentionVersion {
		return nil, errUsageInvalid
	}
	if a.Tools == nil {
		a.Tools = map[string]*ToolUsage{}
	}
	return &a, nil
}

// writeUsage replaces the aggregate atomically: a private temporary file,
// fsync, rename, fsync of the directory.
func writeUsage(home string, a *UsageAggregate) error {
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(home, ".usage-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	_, werr := f.Write(append(b, '\n'))
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(home, UsageFile)); err != nil {
		return err
	}
	return objects.SyncDir(home)
}
