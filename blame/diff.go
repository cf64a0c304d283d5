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
	Parent  string // first parent; "" for a root commit
	Time    int64  // committer time, Unix seconds
	PTime   int64  // the parent's committer time; 0 for a root commit
	Subject string
}

// Commit reads a commit's id, first parent and times.
func (r *Repo) Commit(ctx context.Context, rev string) (*CommitInfo, error) {
	id, err := r.Resolve(ctx, rev)
	if err != nil {
		return nil, err
	}
	out, err := r.Git(ctx, "show", "-s", "--format=%P%x00%ct%x00%s", id)
	if err != nil {
		return nil, err
	}
	f := strings.SplitN(strings.TrimRight(out, "\n"), "\x00", 3)
	c := &CommitInfo{ID: id}
	if len(f) == 3 {
		c.Time, _ = strconv.ParseInt(f[1], 10, 64)
		c.Subject = f[2]
		if ps := strings.Fields(f[0]); len(ps) > 0 {
			c.Parent = ps[0]
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
// for a root commit).
func (r *Repo) AddedLines(ctx context.Context, c *CommitInfo) (*Added, error) {
	args := []string{"-c", "core.quotePath=false", "diff-tree", "-U0", "-r", "-M", "--no-commit-id",
		"--no-color", "--no-ext-diff", "--no-textconv"}
	if c.Parent == "" {
		args = append(args, "--root", c.ID)
	} else {
		args = append(args, c.Parent, c.ID)
	}
	out, err := r.Git(ctx, args...)
	if err != nil {
		return nil, err
	}
	return parseDiff(out), nil
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
