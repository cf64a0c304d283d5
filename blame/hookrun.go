package blame

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"ctx/store"
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
}

// RunHook does the work of a hook. It never returns an error to fail the
// hook: problems are appended to the hooks log and returned for the caller
// to print if it wants to.
func RunHook(ctx context.Context, opts HookRun) error {
	err := runHook(ctx, opts)
	if err != nil {
		HookLogf(opts.Home, opts.now(), "%s %s: %v", opts.Hook, opts.Dir, err)
	}
	return err
}

func (o *HookRun) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

func runHook(ctx context.Context, opts HookRun) error {
	var repo *Repo
	var st *State
	var err error
	if opts.Hook == "post-commit" {
		repo, st, err = OpenRepoState(ctx, opts.Dir) // one git process for both
	} else {
		repo, err = OpenRepo(ctx, opts.Dir)
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
		if st.InRebase {
			return nil // post-rewrite carries the notes when the rebase ends
		}
		lo.State = st
		_, err := Link(ctx, repo, "HEAD", lo)
		return err
	case "post-rewrite":
		if opts.Stdin == nil {
			return nil
		}
		pairs := ParseRewrite(opts.Stdin)
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
