// Command ctx-hook is the fast path of the git post-commit hook that ctx
// hooks install writes: it hands the hook's work to the store's running
// daemon and waits for it. It links nothing of the importer, the index or
// the MCP server, so it starts in a few milliseconds where ctx takes
// about ten. When the daemon does not do the work (none runs, it refused,
// failed or did not answer in time), it runs ctx hooks run in its place,
// telling it so (wake.HookTriedEnv), and ctx does the work itself.
//
//	ctx-hook CTX_BINARY post-commit [ARGS]
package main

import (
	"context"
	"errors"
	"os"
	"syscall"

	"ctx/store"
	"ctx/wake"
)

func main() {
	if len(os.Args) < 3 {
		os.Exit(0)
	}
	bin, hook := os.Args[1], os.Args[2]
	tried := ""
	if hook == "post-commit" && os.Getenv(wake.HookTriedEnv) == "" {
		userHome := os.Getenv("HOME")
		if userHome == "" {
			userHome = "/"
		}
		dir, err := os.Getwd()
		if err == nil {
			err = wake.Hook(context.Background(), store.Home(os.Getenv, userHome), hook, dir)
		}
		switch {
		case err == nil:
			os.Exit(0)
		case errors.Is(err, wake.ErrNotRunning):
			tried = wake.HookNoDaemon
		case errors.Is(err, wake.ErrTooLarge):
			// ctx finds it too long as well and does the work, silently.
		default:
			tried = err.Error()
		}
	}
	env := os.Environ()
	if tried != "" {
		env = append(env, wake.HookTriedEnv+"="+tried)
	}
	args := append([]string{bin, "hooks", "run"}, os.Args[2:]...)
	if err := syscall.Exec(bin, args, env); err != nil {
		os.Exit(0) // a hook never fails a commit; the script logs a missing binary
	}
}
