package wake

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/store"
)

// AutostartEnv turns autostart off when set to "off".
const AutostartEnv = "CTX_DAEMON"

// ErrAutostartOff is returned by WakeOrStart when no daemon runs and
// autostart is not allowed.
var ErrAutostartOff = errors.New("no ctx daemon is running and autostart is off")

// Autostart reports whether a wake may start a daemon: CTX_DAEMON is not
// "off", the config enables the daemon, and this is not a test binary (a
// test must never leave a daemon behind).
func Autostart(getenv func(string) string, configEnabled bool) bool {
	return getenv(AutostartEnv) != "off" && configEnabled && !testing.Testing()
}

// Start runs exe daemon run for the store at home, detached: its own
// session, stdin from /dev/null, stdout and stderr appended to the daemon
// log. It does not wait for the daemon to answer (see WaitReady).
func Start(home, exe string) error {
	if err := os.MkdirAll(filepath.Dir(store.At(home).DaemonLog()), 0o700); err != nil {
		return fmt.Errorf("daemon start: %w", err)
	}
	out, err := os.OpenFile(store.At(home).DaemonLog(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("daemon start: %w", err)
	}
	defer out.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return fmt.Errorf("daemon start: %w", err)
	}
	defer null.Close()
	cmd := exec.Command(exe, "daemon", "run")
	// The daemon serves every repository: the git environment of whoever
	// started it (a hook's GIT_DIR, GIT_INDEX_FILE) is not its own.
	environ := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GIT_") })
	cmd.Env = append(environ, "CTX_HOME="+home)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("daemon start: %w", err)
	}
	return cmd.Process.Release()
}

// WaitReady waits up to wait for a daemon to answer status on the store's
// socket.
func WaitReady(home string, wait time.Duration) (Reply, error) {
	deadline := time.Now().Add(wait)
	for {
		r, err := Status(home)
		if err == nil || time.Now().After(deadline) {
			return r, err
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// WakeOrStart is the wake of CLI search and the MCP server: it wakes the
// daemon and waits at most wait; when none answers and autostart is
// allowed, it starts one detached (with exe) and returns ErrNotRunning at
// once, so the caller reads the committed generation without waiting.
func WakeOrStart(home, exe string, wait time.Duration, autostart bool) (WakeResult, error) {
	res, err := Wake(home, wait)
	if !errors.Is(err, ErrNotRunning) {
		return res, err
	}
	if !autostart {
		return res, ErrAutostartOff
	}
	if serr := Start(home, exe); serr != nil {
		return res, serr
	}
	return res, ErrNotRunning
}

// WakeBeforeRead is what every reader (CLI search, the MCP server) sends
// before reading: the bounded wake, with autostart allowed unless config
// [daemon] enabled = false or CTX_DAEMON=off. Every failure is ignored: the
// caller reads the committed generation either way.
func WakeBeforeRead(home string, env core.Env, wait time.Duration) {
	on := true
	if cfg, err := config.Load(env); err == nil {
		on = cfg.DaemonEnabled()
	}
	exe, _ := os.Executable()
	_, _ = WakeOrStart(home, exe, wait, Autostart(env.Get, on))
}
