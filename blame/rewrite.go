package blame

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"ctx/query"
)

// Pair is one old → new line of post-rewrite's stdin.
type Pair struct{ Old, New string }

// ParseRewrite reads post-rewrite's stdin: "<old> <new> [extra]" per line.
func ParseRewrite(r io.Reader) []Pair {
	var out []Pair
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 {
			out = append(out, Pair{Old: f[0], New: f[1]})
		}
	}
	return out
}

// Rewrite carries the notes of rewritten commits to their new commits:
// line records keep the lines the tree diff from the old commit to the new
// one leaves unchanged and the new commit adds (at their new numbers and
// paths) and are dropped when none remain; commit-level records carry as
// they are. Several old commits rewritten into one (a squash) give the
// union, merged with the note the new commit already has. Problems with one
// commit are logged and skipped.
func Rewrite(ctx context.Context, repo *Repo, pairs []Pair, logf func(string, ...any)) error {
	byNew := map[string][]string{}
	var order, olds []string
	for _, p := range pairs {
		if _, ok := byNew[p.New]; !ok {
			order = append(order, p.New)
		}
		byNew[p.New] = append(byNew[p.New], p.Old)
		olds = append(olds, p.Old)
	}
	nc, err := NewNoteCache(ctx, repo)
	if err != nil {
		return err
	}
	if err := nc.Load(ctx, olds); err != nil {
		return err
	}
	for _, msg := range nc.Problems {
		logf("%s; not carried", msg)
	}
	for _, id := range order {
		if err := carryInto(ctx, repo, id, byNew[id], nc.Note, logf); err != nil {
			logf("commit %s: notes not carried: %v", short(id), err)
		}
	}
	return nil
}

// carryInto carries the notes of olds onto commit id and writes the union
// with id's own note.
func carryInto(ctx context.Context, repo *Repo, id string, olds []string, notes func(string) *Note, logf func(string, ...any)) error {
	have := false
	for _, o := range olds {
		have = have || notes(o) != nil
	}
	if !have {
		return nil
	}
	c, err := repo.Commit(ctx, id)
	if err != nil {
		return err
	}
	added, err := repo.AddedLines(ctx, c)
	if err != nil {
		return err
	}
	carried, err := carryNotes(ctx, repo, c, added, olds, notes)
	if err != nil {
		return err
	}
	_, err = writeMerged(ctx, repo, c.ID, carried, logf)
	return err
}

// LinkRebased links the commits a rebase made to the evidence of the
// rebase's own time, as post-commit would have (git runs it during a rebase
// but ctx leaves the rebase to post-rewrite): lines an agent wrote while the
// rebase stopped, such as a conflict resolution or an edit stop, are
// matched; older evidence travels with the carried notes. The window starts
// at the earliest new commit's committer time less the margin; only line
// records are kept (a session active during the rebase did not write the
// rebased commits).
func LinkRebased(ctx context.Context, repo *Repo, pairs []Pair, opts LinkOptions) error {
	seen := map[string]bool{}
	var commits []*CommitInfo
	var earliest int64
	for _, p := range pairs {
		if seen[p.New] {
			continue
		}
		seen[p.New] = true
		c, err := repo.Commit(ctx, p.New)
		if err != nil {
			opts.logf("commit %s: not linked: %v", short(p.New), err)
			continue
		}
		commits = append(commits, c)
		if earliest == 0 || c.Time < earliest {
			earliest = c.Time
		}
	}
	if len(commits) == 0 {
		return nil
	}
	if opts.Refresh {
		refresh(ctx, opts)
	}
	rd, err := query.Open(opts.Home)
	if query.CodeOf(err) == query.CodeNoHistory {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer rd.Close()
	margin := opts.Margin
	if margin == 0 {
		margin = DefaultMargin
	}
	w, err := Collect(ctx, rd, repo, time.Unix(earliest, 0).Add(-margin))
	if err != nil {
		return fmt.Errorf("read evidence: %w", err)
	}
	if len(w.Events) == 0 {
		return nil
	}
	for _, c := range commits {
		added, err := repo.AddedLines(ctx, c)
		if err != nil {
			opts.logf("commit %s: not linked: %v", short(c.ID), err)
			continue
		}
		n := Match(added, w)
		n.Records = slices.DeleteFunc(n.Records, func(r Record) bool { return r.File == nil })
		if len(n.Records) == 0 {
			continue
		}
		if _, err := writeMerged(ctx, repo, c.ID, n, opts.logf); err != nil {
			return err
		}
	}
	return nil
}
