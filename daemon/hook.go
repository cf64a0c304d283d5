package daemon

import (
	"context"
	"net"
	"path/filepath"
	"time"

	"ctx/blame"
)

// hookTimeout bounds the work of one hook the daemon does.
const hookTimeout = 2 * time.Minute

// hook does a git hook's work for the hook process that asks (ctx hooks
// run post-commit), which waits for the answer: the refresh is a pass of
// this daemon (so it covers everything written before the request), and
// the store, the process and its caches are warm. It accepts at once; a
// hook that gets no acceptance in time does the work itself.
//
// The work is not cancelled when the hook goes away or the daemon is asked
// to stop (a note is written whole or not at all, and the daemon waits for
// it before it exits); only the refresh gives up at a stop, and the commit
// is linked with what is stored.
func (d *daemon) hook(ctx context.Context, c net.Conn, req Request) {
	switch {
	case req.Hook != "post-commit":
		writeReply(c, Reply{Error: "hook: the daemon does post-commit only"})
		return
	case req.Version != d.opts.Version:
		writeReply(c, Reply{Error: "hook: ctx " + req.Version + " asks, the daemon is " + d.opts.Version})
		return
	case !filepath.IsAbs(req.Dir):
		writeReply(c, Reply{Error: "hook: dir must be absolute"})
		return
	case !req.Sent.IsZero() && time.Since(req.Sent) > req.AckWait:
		// The hook stopped waiting and did the work itself; HEAD may have
		// moved on since.
		d.log.Printf("%s %s: asked %s ago, past the hook's wait; left to the hook", req.Hook, req.Dir,
			time.Since(req.Sent).Round(time.Millisecond))
		writeReply(c, Reply{Error: "hook: asked too long ago"})
		return
	}
	writeReply(c, Reply{OK: true, Accepted: true})
	start := time.Now()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), hookTimeout)
	defer cancel()
	n := d.requestWhole() // the pass begins now, beside the hook's first git processes
	refresh := func(rctx context.Context) error {
		rctx, stop := context.WithCancel(rctx)
		defer stop()
		defer context.AfterFunc(ctx, stop)()
		res, err := d.await(rctx, n)
		if err != nil {
			return err
		}
		return res.Err
	}
	env := append([]string{}, req.Env...) // never nil: git runs in the hook's environment, not ours
	err := blame.RunHook(wctx, blame.HookRun{Hook: req.Hook, Dir: req.Dir, Env: env, Home: d.opts.Home,
		Refresh: refresh})
	if err != nil {
		d.log.Printf("%s %s: %v", req.Hook, req.Dir, err)
		writeReply(c, Reply{Error: err.Error()})
		return
	}
	d.log.Printf("%s %s: done in %s", req.Hook, req.Dir, time.Since(start).Round(time.Millisecond))
	writeReply(c, Reply{OK: true})
}
