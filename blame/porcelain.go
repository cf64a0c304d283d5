package blame

import (
	"strconv"
	"strings"
)

// BlamedLine is one line of git blame --porcelain.
type BlamedLine struct {
	Line     int
	Commit   string
	OrigPath string
	OrigLine int
	Text     string
	Boundary bool // blame stopped at this commit (a root, or a shallow clone's boundary)
}

// zeroCommit is how blame names lines not committed yet.
const zeroCommit = "0000000000000000000000000000000000000000"

// parsePorcelain reads git blame --porcelain output. The filename header
// comes only with a commit's first group (or every group of a commit that
// touched several paths), so the last one seen per commit is kept.
func parsePorcelain(out string) []BlamedLine {
	var lines []BlamedLine
	paths := map[string]string{}
	boundary := map[string]bool{}
	var cur *BlamedLine
	for l := range outputLines(out) {
		switch {
		case strings.HasPrefix(l, "\t"):
			if cur != nil {
				cur.Text = l[1:]
				cur.OrigPath = paths[cur.Commit]
				cur.Boundary = boundary[cur.Commit]
				lines = append(lines, *cur)
				cur = nil
			}
		case cur == nil:
			f := strings.Fields(l)
			if len(f) >= 3 && len(f[0]) >= 40 {
				orig, _ := strconv.Atoi(f[1])
				final, _ := strconv.Atoi(f[2])
				cur = &BlamedLine{Commit: f[0], OrigLine: orig, Line: final}
			}
		case l == "boundary":
			boundary[cur.Commit] = true
		case strings.HasPrefix(l, "filename "):
			paths[cur.Commit] = unquotePath(strings.TrimPrefix(l, "filename "))
		}
	}
	return lines
}

func unquotePath(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
