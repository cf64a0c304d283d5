package blame

import (
	"bufio"
	"context"
	"errors"
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
// A read that fails part way returns the pairs read before it and the
// error.
func ParseRewrite(r io.Reader) ([]Pair, error) {
	var out []Pair
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 {
			out = append(out, Pair{Old: f[0], New: f[1]})
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("blame: reading the rewritten commits: %w", err)
	}
	return out, nil
}

// Rewrite carries the notes of rewritten commits to their new commits:
// line records keep the lines the tree diff from the old commit to the new
// one leaves unchanged and the new commit adds (at their new numbers and
// paths) and are dropped when none remain; commit-level records carry as
// they are. Several old commits rewritten into one (a squash) give the
// union, merged with the note the new commit already has. Problems with one
// commit are logged and skipped. The git work is batched: a handful of git
// processes whatever the number of commits.
func Rewrite(ctx context.Context, repo *Repo, pairs []Pair, logf func(string, ...any)) error {
	return rewrite(ctx, repo, pairs, logf, nil)
}

// RewriteAndLink is Rewrite for a rebase: it also links the new commits to
// the evidence of the rebase's own time, as post-commit would have (git
// runs post-commit during a rebase but ctx leaves the rebase to
// post-rewrite), so lines an agent wrote while the rebase stopped, such as
// a conflict resolution or an edit stop, are matched; older evidence
// travels with the carried notes. The window starts at the earliest new
// commit's committer time less the margin; only line records are kept (a
// session active during the rebase did not write the rebased commits).
func RewriteAndLink(ctx context.Context, repo *Repo, pairs []Pair, opts LinkOptions) error {
	return rewrite(ctx, repo, pairs, opts.logf, &opts)
}

func rewrite(ctx context.Context, repo *Repo, pairs []Pair, logf func(string, ...any), link *LinkOptions) error {
	byNew := map[string][]string{}
	var news, all []string
	for _, p := range pairs {
		if _, ok := byNew[p.New]; !ok {
			news = append(news, p.New)
		}
		byNew[p.New] = append(byNew[p.New], p.Old)
		all = append(all, p.Old)
	}
	notes, bad, err := repo.readNotes(ctx, append(all, news...))
	if err != nil {
		return err
	}
	for _, old := range all {
		if e := bad[old]; e != nil {
			logf("commit %s: note not carried: %v", short(old), e)
		}
	}
	note := func(id string) *Note { return notes[id] }
	if link == nil { // only commits with something to carry need looking at
		news = slices.DeleteFunc(news, func(id string) bool {
			return !slices.ContainsFunc(byNew[id], func(o string) bool { return notes[o] != nil })
		})
	}
	if len(news) == 0 {
		return nil
	}
	commits, err := repo.commitsParents(ctx, news)
	if err != nil {
		return err
	}
	found := map[string][]string{}
	for _, c := range commits {
		found[c.ID] = byNew[c.ID]
	}
	for _, id := range news {
		if found[id] == nil {
			logf("commit %s: not found; notes not carried", short(id))
		}
	}
	added, err := repo.addedBatch(ctx, commits)
	if err != nil {
		return err
	}
	maps, err := repo.mapsBatch(ctx, found, note)
	if err != nil {
		return err
	}
	var w *Written
	if link != nil {
		if w, err = rebaseEvidence(ctx, repo, commits, *link); err != nil {
			logf("not linked: %v", err)
		}
	}
	out := map[string]*Note{}
	for _, c := range commits {
		a := added[c.ID]
		if a == nil {
			continue
		}
		n := carryWith(c.ID, a, byNew[c.ID], note, func(old string) map[string]*fileMap { return maps[Pair{old, c.ID}] })
		if w != nil {
			fresh := Match(a, w)
			fresh.Records = slices.DeleteFunc(fresh.Records, func(r Record) bool { return r.File == nil })
			n.Merge(fresh)
		}
		if len(n.Records) == 0 {
			continue
		}
		switch e := bad[c.ID]; {
		case errors.Is(e, ErrNewerNote):
			logf("commit %s: %v; left as is", short(c.ID), e)
			continue
		case e != nil:
			logf("commit %s: existing note ignored: %v", short(c.ID), e)
		case notes[c.ID] != nil:
			have := notes[c.ID]
			merged := &Note{Records: slices.Clone(have.Records)}
			merged.Merge(n)
			if string(merged.Encode()) == string(have.Encode()) {
				continue // nothing new
			}
			n = merged
		}
		out[c.ID] = n
	}
	return repo.WriteNotes(ctx, out)
}

// rebaseEvidence collects the evidence since the earliest of commits'
// committer times less the margin; nil when nothing is imported.
func rebaseEvidence(ctx context.Context, repo *Repo, commits []*CommitInfo, opts LinkOptions) (*Written, error) {
	var earliest int64
	for _, c := range commits {
		if earliest == 0 || c.Time < earliest {
			earliest = c.Time
		}
	}
	if opts.Refresh != nil {
		refresh(ctx, opts)
	}
	rd, err := query.Open(opts.Home)
	if query.CodeOf(err) == query.CodeNoHistory {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	defer rd.Close()
	margin := opts.Margin
	if margin == 0 {
		margin = DefaultMargin
	}
	return Collect(ctx, rd, repo, time.Unix(earliest, 0).Add(-margin))
}
