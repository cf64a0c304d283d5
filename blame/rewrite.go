package blame

import (
	"bufio"
	"context"
	"io"
	"strings"
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
// line records keep the lines whose content the new commit still adds (at
// their new numbers) and are dropped when none remain; commit-level
// records carry as they are. Several old commits rewritten into one (a
// squash) give the union. Problems with one pair are logged and skipped.
func Rewrite(ctx context.Context, repo *Repo, pairs []Pair, logf func(string, ...any)) error {
	for _, p := range pairs {
		old, err := repo.ReadNote(ctx, p.Old)
		if err != nil {
			logf("commit %s: note not carried: %v", short(p.Old), err)
			continue
		}
		if old == nil {
			continue
		}
		c, err := repo.Commit(ctx, p.New)
		if err != nil {
			return err
		}
		added, err := repo.AddedLines(ctx, c)
		if err != nil {
			return err
		}
		carried := carry(ctx, repo, p.Old, old, added)
		if _, err := writeMerged(ctx, repo, c.ID, carried, logf); err != nil {
			return err
		}
	}
	return nil
}

// carry maps old's records onto the new commit's added lines by content.
func carry(ctx context.Context, repo *Repo, oldCommit string, old *Note, added *Added) *Note {
	out := &Note{}
	contents := map[string][]string{}
	for _, r := range old.Records {
		if r.File == nil {
			out.Records = append(out.Records, r)
			continue
		}
		text, ok := contents[*r.File]
		if !ok {
			s, err := repo.Git(ctx, "cat-file", "blob", oldCommit+":"+*r.File)
			if err == nil {
				text = strings.Split(s, "\n")
			}
			contents[*r.File] = text
		}
		if lines := remap(r, text, added.Files[*r.File]); len(lines) > 0 {
			r.Lines = ranges(lines)
			out.Records = append(out.Records, r)
		}
	}
	return out
}

// remap finds, in order, an added line of the new commit with the same text
// as each of the record's old lines.
func remap(r Record, oldText []string, added []Line) []int {
	at := map[string][]int{}
	for _, l := range added {
		at[l.Text] = append(at[l.Text], l.N)
	}
	var out []int
	for _, n := range expand(r.Lines) {
		if n < 1 || n > len(oldText) {
			continue
		}
		q := at[oldText[n-1]]
		if len(q) == 0 {
			continue
		}
		out = append(out, q[0])
		at[oldText[n-1]] = q[1:]
	}
	return out
}
