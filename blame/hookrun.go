package blame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"ctx/store"
	"ctx/wake"
)

// HookRun configures the work of one git hook (ctx hooks run, called by
// the scripts ctx hooks install writes).
type HookRun struct {
	Hook  string    // post-commit, post-rewrite or post-merge
	Args  []string  // the hook's arguments (post-rewrite: amend or rebase)
	Stdin io.Reader // post-rewrite's old → new pairs
	Dir   string    // the directory git ran the hook in
	Home  string    // $CTX_HOME
	Now   func() time.Time
	// Refresh imports changed history before a commit is linked (the
	// import as configured, bounded by the link); nil links with what is
	// stored.
	Refresh func(context.Context) error
	// Env, when set, is the git environment of the hook (GitEnv) for work
	// done in another process than the hook's (the daemon): git runs with
	// it instead of this process's GIT_* variables.
	Env []string
	// RefreshHere, when set, is the refresh for a hook whose daemon did
	// not answer (refused, failed or hung): this process imports, where
	// Refresh would ask that daemon again.
	RefreshHere func(context.Context) error
	// ViaDaemon hands post-commit to the store's running daemon first
	// (wake.RunHook) and waits for it; the work is done here when no
	// daemon does it.
	ViaDaemon bool
	// DaemonTried says the daemon was already asked for this hook (by
	// ctx-hook, see wake.HookTriedEnv): wake.HookNoDaemon when none runs,
	// else why it did not do the work; "" when not asked yet.
	DaemonTried string
	// StartDaemon, when set, is called after post-commit's work was done
	// here because no daemon runs: it starts one (as configured) for the
	// hooks that follow. It is called after the work, so the new daemon's
	// first import does not hold the store while this hook refreshes.
	StartDaemon func()
}

// RunHook does the work of a hook. It never returns an error to fail the
// hook: problems are appended to the hooks log and returned for the caller
// to print if it wants to.
func RunHook(ctx context.Context, opts HookRun) error {
	none := false
	if opts.ViaDaemon && opts.Hook == "post-commit" {
		switch opts.DaemonTried {
		case "":
			var done bool
			if done, none = viaDaemon(ctx, opts); done {
				return nil
			}
		case wake.HookNoDaemon:
			none = true
		default:
			opts.daemonFailed(opts.DaemonTried)
		}
		if !none && opts.RefreshHere != nil {
			opts.Refresh = opts.RefreshHere
		}
	}
	err := runHook(ctx, opts)
	if none && opts.StartDaemon != nil {
		opts.StartDaemon()
	}
	if err != nil {
		HookLogf(opts.Home, opts.now(), "%s %s: %v", opts.Hook, opts.Dir, err)
	}
	return err
}

// viaDaemon asks the store's daemon to do the hook's work and reports
// whether it did, and whether no daemon runs. No daemon is no problem; a
// daemon that refuses, fails or does not answer in time is logged, and the
// hook does the work itself.
func viaDaemon(ctx context.Context, opts HookRun) (done, none bool) {
	err := wake.Hook(ctx, opts.Home, opts.Hook, opts.Dir)
	switch {
	case err == nil:
		return true, false
	case errors.Is(err, wake.ErrNotRunning):
		return false, true
	case errors.Is(err, wake.ErrTooLarge):
	default:
		opts.daemonFailed(err.Error())
	}
	return false, false
}

// daemonFailed logs why the daemon did not do the hook's work.
func (o *HookRun) daemonFailed(why string) {
	dir, _ := filepath.Abs(o.Dir)
	HookLogf(o.Home, o.now(), "%s %s: the daemon did not do it (%s); done in the hook", o.Hook, dir, why)
}

func (o *HookRun) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

func runHook(ctx context.Context, opts HookRun) error {
	var repo *Repo
	var pc *postCommit
	var err error
	if opts.Hook == "post-commit" {
		if pc, err = openPostCommit(ctx, opts.Dir, opts.Env); err == nil {
			repo = pc.repo
		}
	} else {
		repo, err = openRepo(ctx, opts.Dir, opts.Env)
	}
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) {
		HookLogf(opts.Home, opts.now(), "%s %s: %s", opts.Hook, repo.Root, fmt.Sprintf(format, args...))
	}
	lo := LinkOptions{Home: opts.Home, Refresh: opts.Refresh,
		Log: func(s string) { logf("%s", s) }}
	switch opts.Hook {
	case "post-commit":
		if pc.state.InRebase {
			return nil // post-rewrite carries the notes when the rebase ends
		}
		lo.State, lo.commit, lo.added = pc.state, pc.head, pc.added
		_, err := Link(ctx, repo, "HEAD", lo)
		return err
	case "post-rewrite":
		if opts.Stdin == nil {
			return nil
		}
		pairs, err := ParseRewrite(opts.Stdin)
		if err != nil { // carry the notes of the commits read; say what was not
			logf("post-rewrite: %v; the notes of %d commits read before it are carried", err, len(pairs))
		}
		if len(opts.Args) > 0 && opts.Args[0] == "rebase" {
			if err := RewriteAndLink(ctx, repo, pairs, lo); err != nil { // post-commit skipped the rebase's commits
				return err
			}
			// git pull --rebase runs no post-merge: the upstream commits it
			// brought are linked here.
			_, err := LinkPulled(ctx, repo, logf)
			return err
		}
		return Rewrite(ctx, repo, pairs, logf)
	case "post-merge":
		_, err := LinkPulled(ctx, repo, logf)
		return err
	}
	return fmt.Errorf("unknown hook %q: want post-commit, post-rewrite or post-merge", opts.Hook)
}

// postCommit is what post-commit reads from git before the store: the
// repository and its state, HEAD, and the lines HEAD added (nil for a
// merge, whose lines Link works out against each parent).
type postCommit struct {
	repo  *Repo
	state *State
	head  *CommitInfo
	added *Added
}

// openPostCommit reads the repository with its state, HEAD and HEAD's
// diff with three git processes at once (git waits for the hook, so HEAD
// stays put); a HEAD that cannot be read is left for Link to read again
// and report.
func openPostCommit(ctx context.Context, dir string, env []string) (*postCommit, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", dir, err)
	}
	var pc postCommit
	var diff string
	var diffErr error
	var wg sync.WaitGroup
	wg.Add(2)
	here := &Repo{Root: abs, env: env}
	go func() {
		defer wg.Done()
		pc.head, _ = here.Commit(ctx, "HEAD")
	}()
	go func() {
		defer wg.Done()
		diff, diffErr = here.Git(ctx, "-c", "core.quotePath=false", "diff-tree", "-U0", "-r", "-M", "--root",
			"--no-color", "--no-ext-diff", "--no-textconv", "HEAD")
	}()
	pc.repo, pc.state, err = openRepoState(ctx, abs, env)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	// diff-tree of one commit prints its id, then its diff with its only
	// parent (or the empty tree); a merge's diff is worked out per parent.
	if id, rest, ok := strings.Cut(diff, "\n"); ok && diffErr == nil && pc.head != nil && id == pc.head.ID &&
		len(pc.head.Parents) <= 1 {
		pc.added = parseDiff(rest)
	}
	return &pc, nil
}

// HookLogf appends one line to $CTX_HOME/logs/hooks.log; a log that cannot be
// written is given up silently (a hook must not fail).
func HookLogf(home string, now time.Time, format string, args ...any) {
	p := store.At(home).HooksLog()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", now.UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
}
