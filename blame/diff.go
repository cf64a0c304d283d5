package blame

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// Line is one added line of a commit: its number in the commit's version of
// the file and its text.
type Line struct {
	N    int
	Text string
}

// Added is what a commit added, by path relative to the repository root.
type Added struct {
	Files  map[string][]Line
	Binary map[string]bool
	// Removed holds, by the path in the commit, the lines the commit
	// removed from the file, one run per diff hunk: a line re-spaced or
	// re-wrapped by a formatter is removed and added again, and what was
	// there before is not an agent's new line.
	Removed map[string][][]string
	// hunks are the diff's hunks by the path in the commit (not for a
	// merge): what a later formatter pass replaced with what.
	hunks map[string][]diffHunk
}

// diffHunk is one -U0 hunk: the lines it removed from the old path, from
// line oldStart, and the lines it added.
type diffHunk struct {
	oldPath  string
	oldStart int
	removed  []string
	added    []Line
}

// CommitInfo is what linking needs to know of a commit.
type CommitInfo struct {
	ID      string
	Parent  string   // first parent; "" for a root commit
	Parents []string // every parent, first parent first
	Time    int64    // committer time, Unix seconds
	PTime   int64    // the parent's committer time; 0 for a root commit
	Subject string
	Message string // the whole message (trailers such as "cherry picked from")
	// Author is the author's email and time ("<email> <unix>"): a
	// cherry-pick keeps it, so it narrows the search for a pick's source.
	Author string
}

// Commit reads a commit's id, parents, times and message, and its first
// parent's time, with one git process. A parent git names but cannot read
// (a clone shallower than the commit, a damaged repository) is
// ErrNoParent; in a shallow clone the boundary commits have no parents as
// git sees them.
func (r *Repo) Commit(ctx context.Context, rev string) (*CommitInfo, error) {
	out, err := r.Git(ctx, "-c", "log.showSignature=false", "log", "--no-walk=unsorted", "-n", "2",
		"--format=%H%x00%P%x00%ct%x00%ae %at%x00%s%x00%B%x1e", "--end-of-options", rev+"^{commit}", rev+"^{commit}^@")
	if err != nil {
		return nil, r.commitFailed(ctx, rev, err)
	}
	var recs [][]string
	for _, rec := range strings.Split(out, "\x1e") {
		if f := strings.SplitN(strings.TrimPrefix(rec, "\n"), "\x00", 6); len(f) == 6 {
			recs = append(recs, f)
		}
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrBadRevision, rev)
	}
	f := recs[0]
	c := &CommitInfo{ID: f[0], Parents: strings.Fields(f[1]), Author: f[3], Subject: f[4], Message: f[5]}
	c.Time, _ = strconv.ParseInt(f[2], 10, 64)
	if len(c.Parents) == 0 {
		return c, nil
	}
	c.Parent = c.Parents[0]
	for _, p := range recs[1:] {
		if p[0] == c.Parent {
			c.PTime, _ = strconv.ParseInt(p[2], 10, 64)
			return c, nil
		}
	}
	return nil, r.noParent(ctx, c.ID, c.Parent)
}

// commitFailed explains a git log of rev that failed: an unknown revision,
// a repository without commits, or a parent git cannot read.
func (r *Repo) commitFailed(ctx context.Context, rev string, err error) error {
	id, rerr := r.Resolve(ctx, rev)
	if rerr != nil {
		return rerr
	}
	raw, cerr := r.Git(ctx, "cat-file", "commit", id)
	if cerr != nil {
		return err
	}
	for _, l := range strings.Split(raw, "\n") {
		if l == "" {
			break
		}
		if p, ok := strings.CutPrefix(l, "parent "); ok {
			return r.noParent(ctx, id, p)
		}
	}
	return err
}

func (r *Repo) noParent(ctx context.Context, id, parent string) error {
	hint := ""
	if r.Shallow(ctx) != nil {
		hint = shallowHint
	}
	return fmt.Errorf("commit %s: %w: %s%s", short(id), ErrNoParent, short(parent), hint)
}

// AddedLines returns the lines c added against its first parent (every line
// for a root commit). For a merge they are the lines that are new against
// every parent (a conflict resolution, an evil merge): the lines a merge
// brings from a side branch belong to the commits that wrote them.
func (r *Repo) AddedLines(ctx context.Context, c *CommitInfo) (*Added, error) {
	if c.Parent == "" {
		return r.addedAgainst(ctx, "", c.ID)
	}
	a, err := r.addedAgainst(ctx, c.Parent, c.ID)
	if err != nil {
		return nil, err
	}
	for _, p := range c.Parents[min(1, len(c.Parents)):] {
		b, err := r.addedAgainst(ctx, p, c.ID)
		if err != nil {
			return nil, err
		}
		a.intersect(b)
	}
	return a, nil
}

func (r *Repo) addedAgainst(ctx context.Context, parent, commit string) (*Added, error) {
	args := []string{"-c", "core.quotePath=false", "diff-tree", "-U0", "-r", "-M", "--no-commit-id",
		"--no-color", "--no-ext-diff", "--no-textconv"}
	if parent == "" {
		args = append(args, "--root", commit)
	} else {
		args = append(args, parent, commit)
	}
	out, err := r.Git(ctx, args...)
	if err != nil {
		return nil, err
	}
	return parseDiff(out), nil
}

// intersect keeps the lines b also has (same path and number).
func (a *Added) intersect(b *Added) {
	for p, ls := range a.Files {
		in := map[int]bool{}
		for _, l := range b.Files[p] {
			in[l.N] = true
		}
		kept := ls[:0]
		for _, l := range ls {
			if in[l.N] {
				kept = append(kept, l)
			}
		}
		if len(kept) == 0 {
			delete(a.Files, p)
			continue
		}
		a.Files[p] = kept
	}
}

// outputLines yields the lines of git's output as bufio.ScanLines cuts
// them (no newline, no trailing carriage return), however long: the output
// is in memory already, and a scanner's line limit would end the walk at
// the first longer line (a minified file) and drop every file after it.
func outputLines(out string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for l := range strings.Lines(out) {
			l = strings.TrimSuffix(l, "\n")
			if !yield(strings.TrimSuffix(l, "\r")) {
				return
			}
		}
	}
}

// parseDiff reads the added lines of a -U0 diff.
func parseDiff(out string) *Added {
	a := &Added{Files: map[string][]Line{}, Binary: map[string]bool{}, Removed: map[string][][]string{},
		hunks: map[string][]diffHunk{}}
	var path, oldPath string
	var h *diffHunk
	next, header, run := 0, false, -1
	for l := range outputLines(out) {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			path, oldPath, header, h = "", "", true, nil
		case header && strings.HasPrefix(l, "--- "):
			oldPath = oldDiffPath(l[4:])
		case header && strings.HasPrefix(l, "+++ "):
			path = diffPath(l[4:])
		case header && strings.HasPrefix(l, "Binary files ") && strings.HasSuffix(l, " differ"):
			if i := strings.LastIndex(l, " and "); i >= 0 {
				a.Binary[diffPath(strings.TrimSuffix(l[i+5:], " differ"))] = true
			}
		case strings.HasPrefix(l, "@@ "):
			next, header, run = hunkStart(l), false, -1
			h = nil
			if r, ok := parseHunk(l); ok && path != "" {
				a.hunks[path] = append(a.hunks[path], diffHunk{oldPath: oldPath, oldStart: r[0]})
				h = &a.hunks[path][len(a.hunks[path])-1]
			}
		case !header && strings.HasPrefix(l, "+") && path != "":
			a.Files[path] = append(a.Files[path], Line{N: next, Text: l[1:]})
			if h != nil {
				h.added = append(h.added, Line{N: next, Text: l[1:]})
			}
			next++
		case !header && strings.HasPrefix(l, "-") && path != "":
			if run < 0 {
				run = len(a.Removed[path])
				a.Removed[path] = append(a.Removed[path], nil)
			}
			a.Removed[path][run] = append(a.Removed[path][run], l[1:])
			if h != nil {
				h.removed = append(h.removed, l[1:])
			}
		}
	}
	return a
}

// diffPath strips the b/ prefix (and quotes) of a diff path; /dev/null is "".
func diffPath(s string) string {
	s = strings.TrimRight(s, "\t")
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(s, "b/")
}

// hunkStart parses the new-side start of "@@ -a,b +c,d @@".
func hunkStart(l string) int {
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
		return 0
	}
	n, _ := strconv.Atoi(strings.SplitN(f[2][1:], ",", 2)[0])
	return n
}
