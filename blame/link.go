package blame

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"ctx/query"
)

// Linking defaults.
const (
	DefaultRefreshTimeout = 5 * time.Second
	// DefaultMargin widens the window before the parent commit's time, for
	// clock skew between agents and git.
	DefaultMargin = 10 * time.Minute
)

// LinkOptions configure linking a commit.
type LinkOptions struct {
	Home string // $CTX_HOME
	// Refresh, when set, imports changed history first (the caller's
	// import as configured); a busy store or a refresh that runs out of
	// time links with what is stored.
	Refresh func(context.Context) error
	// RefreshTimeout bounds the refresh; DefaultRefreshTimeout when zero.
	RefreshTimeout time.Duration
	Margin         time.Duration // DefaultMargin when zero
	Log            func(string)  // problems that do not stop linking
	// State, when set, is the repository's state right after rev was
	// committed (post-commit): a cherry-pick, merge --squash or reset
	// --soft it reveals carries the notes of the commits rev came from.
	State *State
	// commit, when set, is rev already read (post-commit reads it beside
	// the repository's state).
	commit *CommitInfo
	added  *Added // the lines commit added, when already read
}

func (o *LinkOptions) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log(fmt.Sprintf(format, args...))
	}
}

// Link attributes the lines commit rev added to agent evidence and writes
// the note (merged with a note already there). With opts.State it also
// carries the notes of the commits rev was derived from (a cherry-pick's
// source, the commits a squash folded). It returns the note, nil when
// there is no new evidence.
func Link(ctx context.Context, repo *Repo, rev string, opts LinkOptions) (*Note, error) {
	// The refresh runs beside the git work that needs no store (the
	// commit, its sources, its added lines); the store is read after it.
	refreshed := make(chan struct{})
	if opts.Refresh != nil {
		go func() {
			defer close(refreshed)
			refresh(ctx, opts)
		}()
	} else {
		close(refreshed)
	}
	defer func() { <-refreshed }() // an error return leaves no import running
	c, err := opts.commit, error(nil)
	if c == nil {
		if c, err = repo.Commit(ctx, rev); err != nil {
			return nil, err
		}
	}
	var srcs []string
	if opts.State != nil {
		if srcs, err = repo.derivedFrom(ctx, c, opts.State); err != nil {
			opts.logf("commit %s: sources not searched: %v", short(c.ID), err)
		}
	}
	added := opts.added
	if added == nil || opts.commit == nil {
		if added, err = repo.AddedLines(ctx, c); err != nil {
			return nil, err
		}
	}
	<-refreshed
	rd, err := query.Open(opts.Home)
	noStore := query.CodeOf(err) == query.CodeNoHistory
	switch {
	case noStore && len(srcs) == 0:
		return nil, nil
	case err != nil && !noStore:
		return nil, fmt.Errorf("open store: %w", err)
	case !noStore:
		defer rd.Close()
	}
	n := &Note{}
	if !noStore {
		if n, err = matchStore(ctx, rd, repo, c, added, opts); err != nil {
			return nil, err
		}
	}
	if len(srcs) > 0 {
		carried, err := carryFrom(ctx, repo, c, added, srcs, opts.logf)
		if err != nil {
			return nil, err
		}
		n.Merge(carried)
	}
	if re, err := carryReformatted(ctx, repo, c, added, n, opts.logf); err != nil {
		opts.logf("commit %s: re-formatted lines not carried: %v", short(c.ID), err)
	} else if re != nil {
		n.Merge(re)
	}
	return writeMerged(ctx, repo, c.ID, n, opts.logf)
}

// matchStore matches the added lines against the store's evidence of the
// commit's window.
func matchStore(ctx context.Context, rd *query.Reader, repo *Repo, c *CommitInfo, added *Added, opts LinkOptions) (*Note, error) {
	margin := opts.Margin
	if margin == 0 {
		margin = DefaultMargin
	}
	var since time.Time
	if c.Parent != "" {
		since = time.Unix(c.PTime, 0).Add(-margin)
	}
	w, err := Collect(ctx, rd, repo, since)
	if err != nil {
		return nil, fmt.Errorf("read evidence: %w", err)
	}
	return Match(added, w), nil
}

// carryFrom loads the notes of srcs and carries them onto c, with a fixed
// number of git processes however many sources there are.
func carryFrom(ctx context.Context, repo *Repo, c *CommitInfo, added *Added, srcs []string, logf func(string, ...any)) (*Note, error) {
	notes, bad, err := repo.readNotes(ctx, srcs)
	if err != nil {
		return nil, err
	}
	for _, s := range srcs {
		if e := bad[s]; e != nil {
			logf("commit %s: note not carried: %v", short(s), e)
		}
	}
	note := func(id string) *Note { return notes[id] }
	maps, err := repo.mapsBatch(ctx, map[string][]string{c.ID: srcs}, note)
	if err != nil {
		return nil, err
	}
	return carryWith(c.ID, added, srcs, note, func(old string) map[string]*fileMap { return maps[Pair{old, c.ID}] }), nil
}

// writeMerged merges n with the note already on commit and writes it; an
// unreadable existing note is replaced (and logged). An empty n writes
// nothing.
func writeMerged(ctx context.Context, repo *Repo, commit string, n *Note, logf func(string, ...any)) (*Note, error) {
	if len(n.Records) == 0 {
		return nil, nil
	}
	// A new commit has no note yet: adding without -f either writes it with
	// one git process or fails because a note is there, to be merged.
	if _, err := repo.GitIn(ctx, n.Encode(), "notes", "--ref", NotesRef, "add", "-F", "-", commit); err == nil {
		return n, nil
	} else if ge := (*GitError)(nil); !errors.As(err, &ge) || !strings.Contains(ge.Stderr, "existing notes") {
		return nil, err
	}
	old, err := repo.ReadNote(ctx, commit)
	switch {
	case errors.Is(err, ErrNewerNote):
		logf("commit %s: %v; left as is", short(commit), err)
		return nil, nil
	case err != nil:
		logf("commit %s: existing note ignored: %v", short(commit), err)
	case old != nil:
		old.Merge(n)
		n = old
	}
	if len(n.Records) == 0 {
		return nil, nil
	}
	if err := repo.WriteNote(ctx, commit, n); err != nil {
		return nil, err
	}
	return n, nil
}

// refresh imports changed history within the bounded time; a busy store or
// a refresh that runs out of time links with what is stored.
func refresh(ctx context.Context, opts LinkOptions) {
	timeout := opts.RefreshTimeout
	if timeout == 0 {
		timeout = DefaultRefreshTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := opts.Refresh(ctx); err != nil {
		opts.logf("refresh skipped, linking with the stored history: %v", err)
	}
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
