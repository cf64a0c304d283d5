package blame

import (
	"bufio"
	"context"
	"slices"
	"strconv"
	"strings"
)

// fileMap says where the lines of one file of an old tree are in a new
// tree: its new path ("" when the file is gone) and the -U0 hunks between
// the two versions. Lines outside every hunk are unchanged and shift by the
// hunks before them; lines inside a hunk changed and map nowhere.
type fileMap struct {
	newPath string
	hunks   [][4]int // old start, old count, new start, new count
	binary  bool
}

// line maps old line n to its number in the new version; false when the
// line changed or the file is gone.
func (m *fileMap) line(n int) (int, bool) {
	if m.newPath == "" || m.binary {
		return 0, false
	}
	delta := 0
	for _, h := range m.hunks {
		start, oc, nc := h[0], h[1], h[3]
		if oc == 0 { // an insertion after old line start
			if n <= start {
				break
			}
		} else {
			if n < start {
				break
			}
			if n < start+oc {
				return 0, false
			}
		}
		delta += nc - oc
	}
	return n + delta, true
}

// treeMaps diffs the trees of commits old and new (git diff-tree -M -U0)
// for the given paths of old: a path the diff does not name is unchanged.
// A path the diff reports deleted is looked for again among all renames, so
// a file renamed in between (by the rewrite itself, or by the commits it
// now sits on) is followed with git's rename detection.
func (r *Repo) treeMaps(ctx context.Context, old, newC string, paths []string) (map[string]*fileMap, error) {
	maps, err := r.diffMaps(ctx, old, newC, paths)
	if err != nil {
		return nil, err
	}
	var gone []string
	for _, p := range paths {
		if m, ok := maps[p]; ok && m.newPath == "" {
			gone = append(gone, p)
		}
	}
	if len(gone) == 0 {
		return maps, nil
	}
	out, err := r.Git(ctx, "diff-tree", "-r", "-M", "-z", "--name-status", "--no-commit-id", old, newC)
	if err != nil {
		return nil, err
	}
	renamed := map[string]string{}
	f := strings.Split(out, "\x00")
	for i := 0; i < len(f); i++ {
		if strings.HasPrefix(f[i], "R") && i+2 < len(f) {
			renamed[f[i+1]] = f[i+2]
			i += 2
		} else if strings.HasPrefix(f[i], "C") && i+2 < len(f) {
			i += 2
		} else if f[i] != "" && i+1 < len(f) {
			i++
		}
	}
	var again []string
	for _, p := range gone {
		if to, ok := renamed[p]; ok {
			again = append(again, p, to)
		}
	}
	if len(again) == 0 {
		return maps, nil
	}
	more, err := r.diffMaps(ctx, old, newC, again)
	if err != nil {
		return nil, err
	}
	for _, p := range gone {
		if m, ok := more[p]; ok && m.newPath != "" {
			maps[p] = m
		}
	}
	return maps, nil
}

// diffMaps runs one diff-tree -U0 -M limited to paths and reads its hunks.
func (r *Repo) diffMaps(ctx context.Context, old, newC string, paths []string) (map[string]*fileMap, error) {
	args := []string{"-c", "core.quotePath=false", "diff-tree", "-U0", "-r", "-M", "--no-commit-id",
		"--no-color", "--no-ext-diff", "--no-textconv", old, newC, "--"}
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	out, err := r.Git(ctx, args...)
	if err != nil {
		return nil, err
	}
	return parseMaps(out), nil
}

// parseMaps reads a -U0 -M patch into a fileMap per old path. A created
// file has no old path and is skipped.
func parseMaps(out string) map[string]*fileMap {
	maps := map[string]*fileMap{}
	var cur *fileMap
	var oldPath, gitLine string
	header, deleted := false, false
	flush := func() {
		if cur == nil {
			return
		}
		if oldPath == "" {
			oldPath = pathFromGitLine(gitLine)
			if cur.newPath == "" && !deleted {
				cur.newPath = oldPath
			}
		}
		if deleted {
			cur.newPath = ""
		}
		if oldPath != "" {
			maps[oldPath] = cur
		}
		cur = nil
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "diff --git "):
			flush()
			cur, oldPath, gitLine, header, deleted = &fileMap{}, "", l[len("diff --git "):], true, false
		case cur == nil:
		case header && strings.HasPrefix(l, "rename from "):
			oldPath = unquotePath(strings.TrimPrefix(l, "rename from "))
		case header && strings.HasPrefix(l, "rename to "):
			cur.newPath = unquotePath(strings.TrimPrefix(l, "rename to "))
		case header && strings.HasPrefix(l, "deleted file mode"):
			deleted = true
		case header && strings.HasPrefix(l, "new file mode"):
			cur = nil // nothing of the old tree lives here
		case header && strings.HasPrefix(l, "--- "):
			if p := oldDiffPath(l[4:]); p != "" {
				oldPath = p
			}
		case header && strings.HasPrefix(l, "+++ "):
			cur.newPath = diffPath(l[4:])
		case header && strings.HasPrefix(l, "Binary files "):
			cur.binary = true
		case strings.HasPrefix(l, "@@ "):
			header = false
			if h, ok := parseHunk(l); ok {
				cur.hunks = append(cur.hunks, h)
			}
		}
	}
	flush()
	return maps
}

// oldDiffPath strips the a/ prefix (and quotes) of a --- path.
func oldDiffPath(s string) string {
	s = strings.TrimRight(s, "\t")
	s = unquotePath(s)
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(s, "a/")
}

// pathFromGitLine reads the path of "a/P b/P" (a mode change or a pure
// rename has no ---/+++ lines); "" when it cannot tell.
func pathFromGitLine(s string) string {
	if strings.HasPrefix(s, `"`) {
		return ""
	}
	if n := len(s); n >= 7 && (n-5)%2 == 0 {
		p := s[2 : 2+(n-5)/2]
		if s == "a/"+p+" b/"+p {
			return p
		}
	}
	return ""
}

// parseHunk reads "@@ -a[,b] +c[,d] @@".
func parseHunk(l string) ([4]int, bool) {
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return [4]int{}, false
	}
	oStart, oc := hunkRange(f[1][1:])
	nStart, nc := hunkRange(f[2][1:])
	return [4]int{oStart, oc, nStart, nc}, true
}

func hunkRange(s string) (start, count int) {
	a, b, has := strings.Cut(s, ",")
	start, _ = strconv.Atoi(a)
	count = 1
	if has {
		count, _ = strconv.Atoi(b)
	}
	return start, count
}

// carryNotes maps the line records of each old commit's note onto commit
// c: a line keeps its evidence when the tree diff from the old commit to c
// leaves it unchanged (following renames) and c adds it; records left with
// no line are dropped, commit-level records carry as they are. The result
// is the union over the old commits.
func carryNotes(ctx context.Context, repo *Repo, c *CommitInfo, added *Added, olds []string, notes func(string) *Note) (*Note, error) {
	addedAt := map[string]map[int]bool{}
	for p, ls := range added.Files {
		set := map[int]bool{}
		for _, l := range ls {
			set[l.N] = true
		}
		addedAt[p] = set
	}
	out := &Note{}
	for _, old := range olds {
		n := notes(old)
		if n == nil || old == c.ID {
			continue
		}
		var paths []string
		for _, r := range n.Records {
			if r.File != nil && !slices.Contains(paths, *r.File) {
				paths = append(paths, *r.File)
			}
		}
		var maps map[string]*fileMap
		if len(paths) > 0 {
			var err error
			if maps, err = repo.treeMaps(ctx, old, c.ID, paths); err != nil {
				return nil, err
			}
		}
		carried := &Note{}
		for _, r := range n.Records {
			if r.File == nil {
				carried.Records = append(carried.Records, r)
				continue
			}
			m := maps[*r.File]
			if m == nil {
				m = &fileMap{newPath: *r.File} // unchanged between the two trees
			}
			var lines []int
			for _, l := range expand(r.Lines) {
				if nl, ok := m.line(l); ok && addedAt[m.newPath][nl] {
					lines = append(lines, nl)
				}
			}
			if len(lines) == 0 {
				continue
			}
			p := m.newPath
			r.File, r.Lines = &p, ranges(lines)
			carried.Records = append(carried.Records, r)
		}
		out.Merge(carried)
	}
	return out, nil
}
