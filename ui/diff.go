package ui

import (
	"strings"

	"ctx/core"
)

// diffLine is one line of a rendered edit: Kind is "add", "del", "ctx"
// (unchanged) or "meta" (a hunk or file header of a patch).
type diffLine struct {
	Kind string
	Text string
}

// maxDiffLines bounds the lines of one rendered edit; maxDiffCells the
// work of the line alignment (old lines × new lines).
const (
	maxDiffLines = 2000
	maxDiffCells = 250_000
)

// fileView is one file an event touched, with its edit as diff lines.
type fileView struct {
	Path    string
	Op      string
	MovedTo string
	Diff    []diffLine
	Omitted int // diff lines left out past maxDiffLines
}

func viewFile(ft core.FileTouch) fileView {
	fv := fileView{Path: oneLine(ft.Path), Op: ft.Op, MovedTo: oneLine(ft.MovedTo)}
	switch {
	case ft.Patch != "":
		fv.Diff = patchLines(clean(ft.Patch))
	case ft.Op == core.OpEdit:
		fv.Diff = lineDiff(clean(ft.OldText), clean(ft.NewText))
	case ft.NewText != "":
		fv.Diff = lineDiff("", clean(ft.NewText))
	}
	if len(fv.Diff) > maxDiffLines {
		fv.Omitted = len(fv.Diff) - maxDiffLines
		fv.Diff = fv.Diff[:maxDiffLines]
	}
	for i := range fv.Diff {
		fv.Diff[i].Text, _ = clip(fv.Diff[i].Text, 4096)
	}
	return fv
}

// patchLines colours a unified or apply_patch text by each line's prefix.
func patchLines(p string) []diffLine {
	lines := splitLines(p)
	out := make([]diffLine, 0, len(lines))
	for _, l := range lines {
		k := "ctx"
		switch {
		case strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "***"), strings.HasPrefix(l, "diff "),
			strings.HasPrefix(l, "index "), strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
			k = "meta"
		case strings.HasPrefix(l, "+"):
			k = "add"
		case strings.HasPrefix(l, "-"):
			k = "del"
		}
		out = append(out, diffLine{Kind: k, Text: l})
	}
	return out
}

// lineDiff aligns the lines of a string replacement: the common prefix
// and suffix are context, the middle is aligned by longest common
// subsequence when small enough, else shown as removed then added.
func lineDiff(old, new string) []diffLine {
	a, b := splitLines(old), splitLines(new)
	var out []diffLine
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	sa, sb := len(a), len(b)
	for sa > p && sb > p && a[sa-1] == b[sb-1] {
		sa--
		sb--
	}
	for _, l := range a[:p] {
		out = append(out, diffLine{"ctx", " " + l})
	}
	out = append(out, align(a[p:sa], b[p:sb])...)
	for _, l := range a[sa:] {
		out = append(out, diffLine{"ctx", " " + l})
	}
	return out
}

func align(a, b []string) []diffLine {
	var out []diffLine
	if len(a)*len(b) > maxDiffCells || len(a) == 0 || len(b) == 0 {
		for _, l := range a {
			out = append(out, diffLine{"del", "-" + l})
		}
		for _, l := range b {
			out = append(out, diffLine{"add", "+" + l})
		}
		return out
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, diffLine{"ctx", " " + a[i]})
			i++
			j++
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			out = append(out, diffLine{"del", "-" + a[i]})
			i++
		default:
			out = append(out, diffLine{"add", "+" + b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, diffLine{"del", "-" + a[i]})
	}
	for ; j < len(b); j++ {
		out = append(out, diffLine{"add", "+" + b[j]})
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
