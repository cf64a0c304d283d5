package hooks

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"ctx/blame"
	"ctx/store"
)

// RunOptions configure one hook run.
type RunOptions struct {
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

// Run does the work of a hook. It never returns an error to fail the hook:
// problems are appended to the hooks log and returned for the caller to
// print if it wants to.
func Run(ctx context.Context, opts RunOptions) error {
	err := run(ctx, opts)
	if err != nil {
		Logf(opts.Home, opts.now(), "%s %s: %v", opts.Hook, opts.Dir, err)
	}
	return err
}

func (o *RunOptions) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

func run(ctx context.Context, opts RunOptions) error {
	var repo *blame.Repo
	var st *blame.State
	var err error
	if opts.Hook == "post-commit" {
		repo, st, err = blame.OpenRepoState(ctx, opts.Dir) // one git process for both
	} else {
		repo, err = blame.OpenRepo(ctx, opts.Dir)
	}
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) {
		Logf(opts.Home, opts.now(), "%s %s: %s", opts.Hook, repo.Root, fmt.Sprintf(format, args...))
	}
	lo := blame.LinkOptions{Home: opts.Home, Refresh: opts.Refresh,
		Log: func(s string) { logf("%s", s) }}
	switch opts.Hook {
	case "post-commit":
		if st.InRebase {
			return nil // post-rewrite carries the notes when the rebase ends
		}
		lo.State = st
		_, err := blame.Link(ctx, repo, "HEAD", lo)
		return err
	case "post-rewrite":
		if opts.Stdin == nil {
			return nil
		}
		pairs := blame.ParseRewrite(opts.Stdin)
		if len(opts.Args) > 0 && opts.Args[0] == "rebase" {
			if err := blame.RewriteAndLink(ctx, repo, pairs, lo); err != nil { // post-commit skipped the rebase's commits
				return err
			}
			// git pull --rebase runs no post-merge: the upstream commits it
			// brought are linked here.
			_, err := blame.LinkPulled(ctx, repo, logf)
			return err
		}
		return blame.Rewrite(ctx, repo, pairs, logf)
	case "post-merge":
		_, err := blame.LinkPulled(ctx, repo, logf)
		return err
	}
	return fmt.Errorf("unknown hook %q: want post-commit, post-rewrite or post-merge", opts.Hook)
}

// Logf appends one line to $CTX_HOME/logs/hooks.log; a log that cannot be
// written is given up silently (a hook must not fail).
func Logf(home string, now time.Time, format string, args ...any) {
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

// LogTail returns the last n lines of the hooks log.
func LogTail(home string, n int) []string {
	data, err := os.ReadFile(store.At(home).HooksLog())
	if err != nil {
		return nil
	}
	var lines []string
	start := 0
	for i, b := range data {
		if b == '\n' {
			lines = append(lines, string(data[start:i]))
			start = i + 1
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
