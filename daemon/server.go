package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"ctx/store"
	"ctx/wake"
)

// Protocol limits.
const (
	MaxRequest  = wake.MaxRequest  // bytes of one request line
	MaxConns    = 64               // requests handled at once; more are refused
	readTimeout = 5 * time.Second  // to receive the request line
	syncTimeout = 10 * time.Minute // a sync the client abandoned gives up
)

// The protocol's messages are the wake package's (its client side).
type (
	Request   = wake.Request
	Reply     = wake.Reply
	RunOutput = wake.RunOutput
)

// listen removes a stale socket file and listens on a fresh one (0600).
func (d *daemon) listen(ctx context.Context) error {
	path := store.At(d.opts.Home).Socket()
	_ = os.Remove(path)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return fmt.Errorf("daemon: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("daemon: %w", err)
	}
	d.mu.Lock()
	d.ln = ln
	d.mu.Unlock()
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		d.acceptLoop(ctx, ln)
	}()
	return nil
}

// closeListener stops accepting and removes the socket file.
func (d *daemon) closeListener() {
	d.mu.Lock()
	ln := d.ln
	d.ln = nil
	d.mu.Unlock()
	if ln != nil {
		ln.Close()
	}
}

// ensureSocket recreates the socket when its file was removed.
func (d *daemon) ensureSocket(ctx context.Context) {
	if _, err := os.Stat(store.At(d.opts.Home).Socket()); err == nil || ctx.Err() != nil {
		return
	}
	d.mu.Lock()
	old := d.ln
	d.ln = nil
	d.mu.Unlock()
	if old != nil {
		old.SetUnlinkOnClose(false)
		old.Close()
	}
	if err := d.listen(ctx); err != nil {
		d.log.Printf("socket removed; recreating failed: %v", err)
		return
	}
	d.log.Printf("socket removed; recreated")
}

func (d *daemon) acceptLoop(ctx context.Context, ln *net.UnixListener) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			return
		}
		select {
		case d.conns <- struct{}{}:
		default:
			writeReply(c, Reply{Error: "busy: too many requests"})
			c.Close()
			continue
		}
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			defer func() { <-d.conns }()
			defer c.Close()
			d.handle(ctx, c)
		}()
	}
}

// handle reads one request line and answers it.
func (d *daemon) handle(ctx context.Context, c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(readTimeout))
	line, err := bufio.NewReaderSize(io.LimitReader(c, MaxRequest), MaxRequest).ReadBytes('\n')
	if err != nil {
		writeReply(c, Reply{Error: fmt.Sprintf("bad request: one JSON line of at most %d bytes", MaxRequest)})
		return
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		writeReply(c, Reply{Error: "bad request: not JSON"})
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	switch req.Op {
	case "sync":
		writeReply(c, d.sync(ctx))
	case "status":
		writeReply(c, d.status())
	case "repair":
		d.kickRepair()
		writeReply(c, Reply{OK: true, PID: os.Getpid()})
	case "stop":
		d.log.Printf("stop requested")
		writeReply(c, Reply{OK: true, PID: os.Getpid()})
		d.stop()
	case "search":
		writeReply(c, d.search(ctx, req))
	case "run":
		writeReply(c, d.run(ctx, req))
	case "hook":
		d.hook(ctx, c, req)
	default:
		writeReply(c, Reply{Error: "unknown op: want sync, status, repair, stop, search, run or hook"})
	}
}

// search answers a search over the daemon's open shards (see read).
func (d *daemon) search(ctx context.Context, req Request) Reply {
	return d.read(ctx, req, d.opts.Search != nil, "this daemon does not answer searches", func() (Reply, bool, error) {
		out, damaged, err := d.opts.Search(ctx, req.Search)
		return Reply{OK: true, Result: out}, damaged, err
	})
}

// run runs a command line of the ctx front (ctx search) over the
// daemon's open shards (see read); a search that meets a damaged shard
// asks for its repair itself. An error means the front runs it itself.
func (d *daemon) run(ctx context.Context, req Request) Reply {
	return d.read(ctx, req, d.opts.Command != nil, "this daemon runs no commands", func() (Reply, bool, error) {
		out, err := d.opts.Command(ctx, req)
		return Reply{OK: true, Run: &out}, false, err
	})
}

// read answers a read a client hands over: refused (why) when this
// daemon does not serve it or is another version, else answered as fresh
// as a wake would have made it (see fresh) and counted; an answer that
// met a damaged shard has it rebuilt from the store.
func (d *daemon) read(ctx context.Context, req Request, serves bool, why string, answer func() (Reply, bool, error)) Reply {
	switch {
	case !serves:
		return Reply{Error: why}
	case req.Version != d.opts.Version:
		return Reply{Error: fmt.Sprintf("daemon version %q, client %q: answer it yourself", d.opts.Version, req.Version)}
	}
	d.fresh(ctx)
	r, damaged, err := answer()
	if err != nil {
		return Reply{Error: err.Error()}
	}
	if damaged {
		d.kickRepair()
	}
	d.mu.Lock()
	d.searches++
	d.mu.Unlock()
	return r
}

// fresh imports what the watches have seen change before a read (the
// wait a wake has, at most), so that the answer is what a wake and a read
// would have given; with nothing noted the published generation is
// current and no pass runs.
func (d *daemon) fresh(ctx context.Context) {
	settled := d.settle(ctx)
	if !settled || d.stale() {
		request := d.request
		if !settled {
			request = d.requestWhole // events may be in flight still
		}
		wctx, cancel := context.WithTimeout(ctx, wake.DefaultWakeWait)
		_, _ = d.await(wctx, request()) // past the wait: the committed generation, as a wake
		cancel()
	}
}

// settle makes sure the event loop has noted every file event the kernel
// queued before this call (a line an agent appended just before the
// search): it creates a marker file in the store's directory, which is
// watched, and waits for the loop to see it. The watcher delivers events
// in order, so everything written earlier has been noted by then. It
// reports false when the marker was not seen within settleWait (the caller
// then runs a pass, as a wake would).
func (d *daemon) settle(ctx context.Context) bool {
	d.mu.Lock()
	d.markSeq++
	name := filepath.Join(d.opts.Home, fmt.Sprintf("%s%d", markerPrefix, d.markSeq))
	seen := make(chan struct{})
	d.marks[name] = seen
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.marks, name)
		d.mu.Unlock()
		_ = os.Remove(name)
	}()
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return false
	}
	t := time.NewTimer(settleWait)
	defer t.Stop()
	select {
	case <-seen:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// markerPrefix names settle's marker files in the store's directory.
const markerPrefix = "daemon.settle."

// settleWait bounds settle.
const settleWait = 500 * time.Millisecond

// marked reports whether ev is the creation of a marker a settle waits
// for, and tells it.
func (d *daemon) marked(ev fsnotify.Event) bool {
	if !strings.HasPrefix(filepath.Base(ev.Name), markerPrefix) || filepath.Dir(ev.Name) != filepath.Clean(d.opts.Home) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if ch := d.marks[ev.Name]; ch != nil && ev.Op.Has(fsnotify.Create) {
		close(ch)
		delete(d.marks, ev.Name)
	}
	return true
}

// stale reports whether the published generation may miss a change: one
// the watches noted that no pass has published yet, watch events lost (an
// overflow) and not yet looked for, watches that cannot cover every
// source directory, or no pass finished yet. A pass the rescan timer asked
// for is not a reason to wait: it finds only what the watches cannot see,
// and a vector build may hold the writer for a while before it runs.
func (d *daemon) stale() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.pending.IsZero() || d.lost || d.watching >= MaxWatches || d.lastAt.IsZero()
}

// sync requests a pass and waits for it.
func (d *daemon) sync(ctx context.Context) Reply {
	ctx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	res, err := d.await(ctx, d.requestWhole())
	if err != nil {
		return Reply{Error: "stopped before the import finished"}
	}
	if res.Err != nil {
		return Reply{Error: res.Err.Error(), Generation: res.Generation}
	}
	return Reply{OK: true, Generation: res.Generation, Published: res.Published, FilesRead: res.FilesRead,
		EventsIndexed: res.EventsIndexed}
}

func (d *daemon) status() Reply {
	d.mu.Lock()
	defer d.mu.Unlock()
	// The newest generation the daemon published: a pass's, or a merge's
	// beside the passes.
	r := Reply{OK: true, PID: os.Getpid(), Started: d.started, LastGeneration: max(d.last.Generation, d.merged),
		LastImport: d.lastAt, Watching: d.watching, Searches: d.searches}
	if d.repair != nil {
		cp := *d.repair
		r.Repair = &cp
	}
	if d.gc != nil {
		cp := *d.gc
		r.GC = &cp
	}
	if !d.pending.IsZero() {
		r.LagSeconds = time.Since(d.pending).Seconds()
	}
	return r
}

func writeReply(c net.Conn, r Reply) {
	_ = c.SetWriteDeadline(time.Now().Add(readTimeout))
	data, _ := json.Marshal(r)
	_, _ = c.Write(append(data, '\n'))
}
