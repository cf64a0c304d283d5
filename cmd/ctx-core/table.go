package main

import (
	"io"
	"strings"
	"unicode/utf8"
)

// table prints aligned columns within a terminal's width: the flex column
// (the last, usually a title) takes what is left and is cut with a marker;
// when even that does not fit, the shrink column is cut too. Cells may
// hold style escapes; widths count what is visible.
type table struct {
	head   []string
	rows   [][]string
	right  map[int]bool // right-aligned columns
	flex   int          // the column that absorbs the width
	shrink int          // the column cut next, from its left (-1: none)
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) widths(width int) []int {
	ws := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			ws[i] = max(ws[i], visibleLen(c))
		}
	}
	if width <= 0 {
		return ws
	}
	used := 0
	for i, w := range ws {
		if i != t.flex {
			used += w + 2
		}
	}
	room := width - used
	if room < 30 && t.shrink >= 0 {
		cut := min(ws[t.shrink]-12, 30-room)
		if cut > 0 {
			ws[t.shrink] -= cut
			room += cut
		}
	}
	ws[t.flex] = max(min(ws[t.flex], room), 10)
	return ws
}

func (t *table) print(w io.Writer, width int, st style) {
	ws := t.widths(width)
	line := func(cells []string, head bool) {
		var b strings.Builder
		for i, c := range cells {
			if visibleLen(c) > ws[i] && i == t.shrink {
				c = fitLeft(stripStyle(c), ws[i])
			} else if visibleLen(c) > ws[i] {
				c = fit(stripStyle(c), ws[i])
			}
			if head {
				c = st.bold(c)
			}
			gap := strings.Repeat(" ", max(ws[i]-visibleLen(c), 0))
			switch {
			case t.right[i]:
				b.WriteString(gap + c)
			case i == len(cells)-1:
				b.WriteString(c)
			default:
				b.WriteString(c + gap)
			}
			if i < len(cells)-1 {
				b.WriteString("  ")
			}
		}
		io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n")
	}
	line(t.head, true)
	for _, r := range t.rows {
		line(r, false)
	}
}

// visibleLen counts the runes of s outside style escapes.
func visibleLen(s string) int { return utf8.RuneCountInString(stripStyle(s)) }

// stripStyle removes the SGR escapes style adds (ESC [ … m).
func stripStyle(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return b.String()
		}
		s = s[i+j+1:]
	}
}
