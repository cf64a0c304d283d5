package wake

import (
	"bufio"
	"context"
	"ctx/store"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// DefaultWakeWait is how long CLI search and the MCP server wait for a wake
// before reading the committed generation anyway.
const DefaultWakeWait = 2 * time.Second

// ErrNotRunning means no daemon answers on the store's socket.
var ErrNotRunning = errors.New("no ctx daemon is running for this store")

// WakeResult is what a wake learned.
type WakeResult struct {
	Generation uint64        // active generation after the pass; 0 when TimedOut
	Published  bool          // the pass published a new generation
	TimedOut   bool          // the pass did not finish within the wait
	Waited     time.Duration // time spent
}

// Wake asks the daemon of the store at home to bring itself up to date and
// waits at most wait for the answer. A pass still running when wait ends
// is not an error: TimedOut is set and the caller reads what is committed.
// It returns ErrNotRunning when no daemon answers.
func Wake(home string, wait time.Duration) (WakeResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	start := time.Now()
	r, err := call(ctx, home, Request{Op: "sync"})
	res := WakeResult{Waited: time.Since(start)}
	if errors.Is(err, context.DeadlineExceeded) {
		res.TimedOut = true
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.Generation, res.Published = r.Generation, r.Published
	return res, nil
}

// ImportViaDaemon asks a running daemon to import and waits, until ctx
// ends, for the generation that covers everything written before the call.
// It returns ErrNotRunning when no daemon answers (then the caller imports
// itself), and the daemon's error when its import failed.
func ImportViaDaemon(ctx context.Context, home string) (Reply, error) {
	return call(ctx, home, Request{Op: "sync"})
}

// RequestRepair tells the running daemon that a read found a damaged
// index shard: it checks the active generation's shards and rebuilds the
// damaged ones from the store in the background. It returns once the
// daemon took the request (ErrNotRunning when none runs).
func RequestRepair(home string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := call(ctx, home, Request{Op: "repair"})
	return err
}

// Status asks the running daemon for its status.
func Status(home string) (Reply, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return call(ctx, home, Request{Op: "status"})
}

// Stop asks the running daemon to stop and waits up to wait for it to
// release its lock.
func Stop(home string, wait time.Duration) (Reply, error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	r, err := call(ctx, home, Request{Op: "stop"})
	if err != nil {
		return r, err
	}
	for LockedPID(home) == r.PID && r.PID != 0 {
		select {
		case <-ctx.Done():
			return r, fmt.Errorf("daemon pid %d did not stop within %s", r.PID, wait)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return r, nil
}

// ErrTooLarge means a request does not fit in one request line (a long
// search, a hook's very long directory or git environment): the caller
// does the work itself.
var ErrTooLarge = errors.New("request too large for the daemon")

// Search asks the running daemon of the store at home to answer a search
// (req is the app layer's JSON request; the result comes back as its
// JSON): the daemon first imports what it has seen change, waiting at most
// wait for that, then searches over the shards it holds open. It returns
// ErrNotRunning when no daemon answers; any error means the caller
// searches itself.
func Search(ctx context.Context, home, version string, req []byte, wait time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, wait+searchTimeout)
	defer cancel()
	r, err := call(ctx, home, Request{Op: "search", Version: version, Search: req})
	if err != nil {
		return nil, err
	}
	return r.Result, nil
}

// searchTimeout bounds a delegated search beyond the wake's wait: past
// it the caller searches itself.
const searchTimeout = 5 * time.Second

// call sends one request and reads the reply, bounded by ctx.
func call(ctx context.Context, home string, req Request) (Reply, error) {
	data, err := encodeRequest(req)
	if err != nil {
		return Reply{}, err
	}
	var dl net.Dialer
	c, err := dl.DialContext(ctx, "unix", store.At(home).Socket())
	if err != nil {
		if ctx.Err() != nil {
			return Reply{}, ctx.Err()
		}
		return Reply{}, fmt.Errorf("%w (%v)", ErrNotRunning, err)
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Now()) })
	defer stop()
	if _, err := c.Write(append(data, '\n')); err != nil {
		return Reply{}, wireErr(ctx, err)
	}
	return readReply(ctx, bufio.NewReader(c))
}

// encodeRequest is a request's line without its newline, ErrTooLarge when
// it would not fit in MaxRequest.
func encodeRequest(req Request) ([]byte, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if len(data)+1 > MaxRequest {
		return nil, ErrTooLarge
	}
	return data, nil
}

// wireErr turns a socket error into ctx's error when ctx ended.
func wireErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return context.DeadlineExceeded
	}
	return fmt.Errorf("daemon: %w", err)
}

// Running reports the pid of the daemon that holds the store's lock, 0
// when none does.
func Running(home string) int {
	if _, err := os.Stat(store.At(home).DaemonLock()); err != nil {
		return 0
	}
	return LockedPID(home)
}

// Info is the daemon part of the status read model (ctx status --format
// json and the MCP status tool).
type Info struct {
	Running        bool    `json:"running"`
	PID            int     `json:"pid,omitempty"`
	LastGeneration uint64  `json:"last_generation,omitempty"`
	LagSeconds     float64 `json:"lag_seconds"`
	Watching       int     `json:"watching,omitempty"`
	Repair         *Repair `json:"repair,omitempty" jsonschema:"The daemon's last rebuild of damaged index shards from the store (absent when it found none)."`
}

// State asks the store's daemon for its status; a daemon that does not
// answer is reported as not running.
func State(home string) Info {
	r, err := Status(home)
	if err != nil {
		return Info{}
	}
	return Info{Running: true, PID: r.PID, LastGeneration: r.LastGeneration, LagSeconds: r.LagSeconds, Watching: r.Watching,
		Repair: r.Repair}
}
