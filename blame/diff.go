package blame

import (
	"bufio"
	"context"
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

// Commit reads a commit's id, parents, times and message.
func (r *Repo) Commit(ctx context.Context, rev string) (*CommitInfo, error) {
	id, err := r.Resolve(ctx, rev)
	if err != nil {
		return nil, err
	}
	out, err := r.Git(ctx, "show", "-s", "--format=%P%x00%ct%x00%ae %at%x00%s%x00%B", id)
	if err != nil {
		return nil, err
	}
	f := strings.SplitN(out, "\x00", 5)
	c := &CommitInfo{ID: id}
	if len(f) == 5 {
		c.Time, _ = strconv.ParseInt(f[1], 10, 64)
		c.Author, c.Subject, c.Message = f[2], f[3], f[4]
		c.Parents = strings.Fields(f[0])
		if len(c.Parents) > 0 {
			c.Parent = c.Parents[0]
		}
	}
	if c.Parent != "" {
		pt, err := r.Git(ctx, "show", "-s", "--format=%ct", c.Parent)
		if err != nil {
			return nil, err
		}
		c.PTime, _ = strconv.ParseInt(strings.TrimSpace(pt), 10, 64)
	}
	return c, nil
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

// parseDiff reads the added lines of a -U0 diff.
func parseDiff(out string) *Added {
	a := &Added{Files: map[string][]Line{}, Binary: map[string]bool{}}
	var path string
	next, header := 0, false
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "diff --git "):
			path, header = "", true
		case header && strings.HasPrefix(l, "+++ "):
			path = diffPath(l[4:])
		case header && strings.HasPrefix(l, "Binary files ") && strings.HasSuffix(l, " differ"):
			if i := strings.LastIndex(l, " and "); i >= 0 {
				a.Binary[diffPath(strings.TrimSuffix(l[i+5:], " differ"))] = true
			}
		case strings.HasPrefix(l, "@@ "):
			next, header = hunkStart(l), false
		case !header && strings.HasPrefix(l, "+") && path != "":
			a.Files[path] = append(a.Files[path], Line{N: next, Text: l[1:]})
			next++
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
