package blame

import (
	"context"
	"fmt"
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
	for l := range outputLines(out) {
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

// recordPaths lists the files a note's line records name.
func recordPaths(n *Note) []string {
	var paths []string
	for _, r := range n.Records {
		if r.File != nil && !slices.Contains(paths, *r.File) {
			paths = append(paths, *r.File)
		}
	}
	return paths
}

// carryWith carries the notes of olds onto commit id through the file maps
// of each old commit (a path without a map is unchanged).
func carryWith(id string, added *Added, olds []string, notes func(string) *Note, mapsOf func(old string) map[string]*fileMap) *Note {
	addedAt := map[string]map[int]bool{}
	if added != nil {
		for p, ls := range added.Files {
			set := map[int]bool{}
			for _, l := range ls {
				set[l.N] = true
			}
			addedAt[p] = set
		}
	}
	out := &Note{}
	for _, old := range olds {
		n := notes(old)
		if n == nil || old == id {
			continue
		}
		maps := mapsOf(old)
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
	return out
}

// diffBatch runs one git diff-tree --stdin over pairs of objects and
// returns each pair's patch, in order (--always heads every one, empty or
// not, with a line holding the second object's id). No pairs run no git.
func (r *Repo) diffBatch(ctx context.Context, pairs [][2]string, paths []string) ([]string, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	var in strings.Builder
	for _, p := range pairs {
		in.WriteString(p[1] + " " + p[0] + "\n") // "<commit> <parent>": the diff from p[0] to p[1]
	}
	args := []string{"-c", "core.quotePath=false", "diff-tree", "--stdin", "--always", "-U0", "-r", "-M",
		"--no-color", "--no-ext-diff", "--no-textconv"}
	if paths != nil {
		args = append(args, "--")
		for _, p := range paths {
			args = append(args, ":(literal)"+p)
		}
	}
	out, err := r.GitIn(ctx, []byte(in.String()), args...)
	if err != nil {
		return nil, err
	}
	blocks := make([]string, 0, len(pairs))
	var cur strings.Builder
	k := 0 // headers seen
	for _, l := range strings.SplitAfter(out, "\n") {
		if k < len(pairs) && strings.TrimRight(l, "\n") == pairs[k][1] {
			if k > 0 {
				blocks = append(blocks, cur.String())
				cur.Reset()
			}
			k++
			continue
		}
		cur.WriteString(l)
	}
	if k > 0 {
		blocks = append(blocks, cur.String())
	}
	if len(blocks) != len(pairs) {
		return nil, fmt.Errorf("git diff-tree --stdin: %d patches for %d pairs", len(blocks), len(pairs))
	}
	return blocks, nil
}

// commitsParents reads the parents and committer times of commits with
// one git process.
func (r *Repo) commitsParents(ctx context.Context, ids []string) ([]*CommitInfo, error) {
	out, err := r.GitIn(ctx, []byte(strings.Join(ids, "\n")+"\n"), "log", "--no-walk=unsorted", "--ignore-missing",
		"--stdin", "--format=%H%x00%P%x00%ct")
	if err != nil {
		return nil, err
	}
	var cs []*CommitInfo
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(l, "\x00")
		if len(f) != 3 {
			continue
		}
		c := &CommitInfo{ID: f[0], Parents: strings.Fields(f[1])}
		c.Time, _ = strconv.ParseInt(f[2], 10, 64)
		if len(c.Parents) > 0 {
			c.Parent = c.Parents[0]
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// addedBatch is AddedLines for many commits with one git process (root
// commits, rare in a rewrite, take one each).
func (r *Repo) addedBatch(ctx context.Context, commits []*CommitInfo) (map[string]*Added, error) {
	out := map[string]*Added{}
	var pairs [][2]string
	for _, c := range commits {
		if c.Parent == "" {
			a, err := r.AddedLines(ctx, c)
			if err != nil {
				return nil, err
			}
			out[c.ID] = a
			continue
		}
		for _, p := range c.Parents {
			pairs = append(pairs, [2]string{p, c.ID})
		}
	}
	blocks, err := r.diffBatch(ctx, pairs, nil)
	if err != nil {
		return nil, err
	}
	for i, p := range pairs {
		a := parseDiff(blocks[i])
		if prev, ok := out[p[1]]; ok {
			prev.intersect(a) // a merge: new against every parent
			continue
		}
		out[p[1]] = a
	}
	return out, nil
}

// mapsBatch diffs every old commit with a note against its new commit in
// one git process, limited to the notes' files; a pair where a file is
// gone is diffed again on its own to follow renames.
func (r *Repo) mapsBatch(ctx context.Context, byNew map[string][]string, notes func(string) *Note) (map[Pair]map[string]*fileMap, error) {
	var pairs [][2]string
	var paths []string
	need := map[Pair][]string{}
	for nw, olds := range byNew {
		for _, old := range olds {
			n := notes(old)
			if n == nil || old == nw {
				continue
			}
			ps := recordPaths(n)
			if len(ps) == 0 {
				continue
			}
			need[Pair{old, nw}] = ps
			pairs = append(pairs, [2]string{old, nw})
			for _, p := range ps {
				if !slices.Contains(paths, p) {
					paths = append(paths, p)
				}
			}
		}
	}
	out := map[Pair]map[string]*fileMap{}
	blocks, err := r.diffBatch(ctx, pairs, paths)
	if err != nil {
		return nil, err
	}
	for i, p := range pairs {
		key := Pair{p[0], p[1]}
		m := parseMaps(blocks[i])
		gone := false
		for _, f := range need[key] {
			if fm, ok := m[f]; ok && fm.newPath == "" {
				gone = true
			}
		}
		if gone {
			if m, err = r.treeMaps(ctx, p[0], p[1], need[key]); err != nil {
				return nil, err
			}
		}
		out[key] = m
	}
	return out, nil
}
