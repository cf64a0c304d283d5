package main

import (
	"strings"

	"github.com/rivo/uniseg"

	"ctx/query"
)

// wrapLines breaks s, one line of words apart by single spaces, into lines
// of at most width columns at its spaces; a word wider than a line is cut
// at the width. It returns each line's byte range; width <= 0 is one line.
func wrapLines(s string, width int) [][2]int {
	if width <= 0 || uniseg.StringWidth(s) <= width {
		return [][2]int{{0, len(s)}}
	}
	var out [][2]int
	ls, le, col := 0, 0, 0 // the current line's start and end, its width
	for a := 0; a < len(s); {
		b := strings.IndexByte(s[a:], ' ')
		if b < 0 {
			b = len(s)
		} else {
			b += a
		}
		w := uniseg.StringWidth(s[a:b])
		switch {
		case col > 0 && col+1+w <= width:
			le, col = b, col+1+w
		default:
			if col > 0 {
				out = append(out, [2]int{ls, le})
			}
			ls = a
			for w > width { // cut a word wider than the line
				cut := cutColumns(s[ls:b], width)
				out = append(out, [2]int{ls, ls + cut})
				ls += cut
				w = uniseg.StringWidth(s[ls:b])
			}
			le, col = b, w
		}
		a = b + 1
	}
	if col > 0 || le > ls {
		out = append(out, [2]int{ls, le})
	}
	return out
}

// cutColumns is the length in bytes of the longest prefix of s at most
// width columns wide (at least one character).
func cutColumns(s string, width int) int {
	col, n := 0, 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		w := g.Width()
		if col+w > width && n > 0 {
			break
		}
		col += w
		_, n = g.Positions()
	}
	return n
}

// renderSnippet writes a search hit's snippet wrapped to width columns
// after indent, its highlights in bold; each piece is cleaned of control
// characters (a snippet holds none, but it is transcript text).
func renderSnippet(b *strings.Builder, st style, s string, spans []query.Span, width int, indent string) {
	for _, ln := range wrapLines(s, width-len(indent)) {
		b.WriteString(indent)
		at := ln[0]
		for _, sp := range spans {
			lo, hi := max(sp.Start, ln[0]), min(sp.End, ln[1])
			if lo >= hi || lo < at {
				continue
			}
			b.WriteString(clean(s[at:lo]))
			b.WriteString(st.bold(clean(s[lo:hi])))
			at = hi
		}
		b.WriteString(clean(s[at:ln[1]]))
		b.WriteByte('\n')
	}
}
