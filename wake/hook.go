package wake

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/internal/version"
	"ctx/store"
)

// DefaultHookAck is how long a hook waits for the daemon to accept its
// work before doing it itself.
const DefaultHookAck = time.Second

// HookWait bounds how long a hook waits for the daemon to do its work
// once accepted (the refresh's 5 s bound and the link); past it the hook
// does the work itself.
const HookWait = 30 * time.Second

// HookTriedEnv is set by ctx-hook for the ctx hooks run it hands over to
// when the daemon did not do the work: HookNoDaemon when none runs, else
// why; ctx then does the work without asking again.
const HookTriedEnv = "CTX_HOOK_DAEMON"

// HookNoDaemon is HookTriedEnv's value when no daemon runs.
const HookNoDaemon = "none"

// Hook asks the store's daemon to do the work of hook, which git ran in
// dir, with this process's git environment, and waits (RunHook with the
// default bounds). ErrNotRunning means no daemon runs.
func Hook(ctx context.Context, home, hook, dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, HookWait)
	defer cancel()
	_, err = RunHook(ctx, home, Request{Hook: hook, Dir: abs, Env: GitEnv(abs, os.Environ()), Version: version.Version},
		DefaultHookAck)
	return err
}

// RunHook hands a git hook's work to the store's daemon (op "hook") and
// waits for it: the daemon accepts at once, within ack, and answers when
// the work is done or failed, within ctx. It returns ErrNotRunning when no
// daemon answers, context.DeadlineExceeded when the daemon did not accept
// within ack or finish within ctx, and the daemon's error otherwise; in
// every such case the caller does the work itself (a daemon that wrote a
// note before it failed leaves a note the caller merges with).
func RunHook(ctx context.Context, home string, req Request, ack time.Duration) (Reply, error) {
	req.Op, req.Sent, req.AckWait = "hook", time.Now(), ack
	data, err := encodeRequest(req)
	if err != nil {
		return Reply{}, err // ErrTooLarge for a very long directory or git environment
	}
	var dl net.Dialer
	dctx, cancel := context.WithTimeout(ctx, ack)
	defer cancel()
	c, err := dl.DialContext(dctx, "unix", store.At(home).Socket())
	if err != nil {
		if dctx.Err() != nil {
			return Reply{}, context.DeadlineExceeded
		}
		return Reply{}, fmt.Errorf("%w (%v)", ErrNotRunning, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Now()) })
	defer stop()
	_ = c.SetDeadline(time.Now().Add(ack))
	if _, err := c.Write(append(data, '\n')); err != nil {
		return Reply{}, wireErr(ctx, err)
	}
	rd := bufio.NewReader(c)
	r, err := readReply(ctx, rd)
	if err != nil {
		return r, err
	}
	if !r.Accepted {
		return r, fmt.Errorf("daemon: hook not accepted")
	}
	_ = c.SetDeadline(time.Time{})
	if d, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(d)
	}
	return readReply(ctx, rd)
}

// readReply reads one reply line; a reply that is not OK is its error.
func readReply(ctx context.Context, rd *bufio.Reader) (Reply, error) {
	line, err := rd.ReadBytes('\n')
	if err != nil {
		return Reply{}, wireErr(ctx, err)
	}
	var r Reply
	if err := json.Unmarshal(line, &r); err != nil {
		return Reply{}, fmt.Errorf("daemon: bad reply: %w", err)
	}
	if !r.OK {
		return r, fmt.Errorf("daemon: %s", r.Error)
	}
	return r, nil
}

// GitEnv is the part of environ git's behaviour depends on, to run git in
// another process as it would run in this one: every GIT_* variable (the
// ones git sets for a hook: GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS,
// the author; and the user's), with relative paths made absolute against
// dir, and HOME and XDG_CONFIG_HOME, where git finds its global config.
func GitEnv(dir string, environ []string) []string {
	out := []string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !(strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME") {
			continue
		}
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR":
			if v != "" && !filepath.IsAbs(v) {
				kv = k + "=" + filepath.Join(dir, v)
			}
		}
		out = append(out, kv)
	}
	return out
}

// StartAsConfigured starts the store's daemon detached (with exe) when
// autostart is allowed: CTX_DAEMON is not "off", config.toml does not
// disable the daemon, and this is not a test binary. It is what a hook
// that found no daemon does after its work, so the next hooks are the
// daemon's.
func StartAsConfigured(home string, env core.Env, exe string) error {
	on := true
	if cfg, err := config.Load(env); err == nil {
		on = cfg.DaemonEnabled()
	}
	if !Autostart(env.Get, on) {
		return ErrAutostartOff
	}
	return Start(home, exe)
}
