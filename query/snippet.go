package query

import (
	"strings"
	"unicode"

	"ctx/core"
)

// SnippetBytes is about how much text a search hit's snippet holds.
const SnippetBytes = 240

// maxSnippetMatches bounds the term matches a snippet's window is chosen
// from (a huge output repeating a word).
const maxSnippetMatches = 4096

// Span is a marked part of a snippet: byte offsets into it, End exclusive.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// snippetToken is a run of letters and digits of a flattened text.
type snippetToken struct {
	start, end int
	low        string
}

// snippetMatch is where a term matched, and which term.
type snippetMatch struct {
	start, end, term int
}

// Snippet returns about width bytes of text on one line, taken where the
// terms (from index.HighlightTerms) are densest: the window holding the
// most different terms, then the most matches. Terminal escape sequences
// are removed and every run of white space or control characters is one
// space, so the snippet is plain text; spans mark the term matches in it.
// A word matches a term in any of its inflections (fail, failed); a phrase
// matches its words in order.
func Snippet(text string, terms [][]string, width int) (string, []Span) {
	plain := flatten(text)
	matches := findMatches(tokenize(plain), terms)
	start, end := window(plain, matches, width)
	prefix, suffix := "", ""
	if start > 0 {
		prefix = "…"
	}
	if end < len(plain) {
		suffix = "…"
	}
	var spans []Span
	for _, m := range matches {
		if m.start >= start && m.end <= end {
			spans = append(spans, Span{Start: m.start - start + len(prefix), End: m.end - start + len(prefix)})
		}
	}
	return prefix + plain[start:end] + suffix, spans
}

// flatten strips escape sequences and folds white space and control
// characters into single spaces, trimmed at both ends.
func flatten(text string) string {
	text = core.StripEscapes(text)
	var b strings.Builder
	b.Grow(len(text))
	space := false
	for _, r := range text {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == 0x2028 || r == 0x2029 {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func tokenize(s string) []snippetToken {
	var out []snippetToken
	start := -1
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, snippetToken{start: start, end: i, low: strings.ToLower(s[start:i])})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, snippetToken{start: start, end: len(s), low: strings.ToLower(s[start:])})
	}
	return out
}

// findMatches lists the term matches over the tokens, in text order.
func findMatches(toks []snippetToken, terms [][]string) []snippetMatch {
	stems := make([]string, len(terms))
	for i, t := range terms {
		if len(t) == 1 {
			stems[i] = stem(t[0])
		}
	}
	var out []snippetMatch
	for i := 0; i < len(toks) && len(out) < maxSnippetMatches; i++ {
		for ti, t := range terms {
			if n := matchAt(toks, i, t, stems[ti]); n > 0 {
				out = append(out, snippetMatch{start: toks[i].start, end: toks[i+n-1].end, term: ti})
				i += n - 1
				break
			}
		}
	}
	return out
}

// matchAt returns how many tokens from i the term covers (0: no match).
func matchAt(toks []snippetToken, i int, t []string, st string) int {
	if len(t) == 1 {
		if toks[i].low == t[0] || (st != "" && stem(toks[i].low) == st) {
			return 1
		}
		return 0
	}
	if i+len(t) > len(toks) {
		return 0
	}
	for k, w := range t {
		if toks[i+k].low != w {
			return 0
		}
	}
	return len(t)
}

// stem is a word without the commonest English inflection (s, es, ed,
// ing), for words long enough to have one; "" for short words, which
// match only as they are.
func stem(w string) string {
	if len(w) < 4 {
		return ""
	}
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// window returns the byte range of plain a snippet shows: width bytes
// around the densest run of matches, from a word's start where one is
// near, on rune boundaries.
func window(plain string, ms []snippetMatch, width int) (int, int) {
	if len(plain) <= width {
		return 0, len(plain)
	}
	first, last := densest(ms, width)
	start := 0
	if first >= 0 {
		lo, hi := ms[first].start, ms[last].end
		room := max(width-(hi-lo), 0)
		start = max(lo-room/3, 0)
		if start > 0 {
			if sp := strings.IndexByte(plain[start:lo], ' '); sp >= 0 && sp < 24 {
				start += sp + 1
			}
		}
	}
	start = core.RuneCut(plain, start)
	end := start + core.RuneCut(plain[start:], width)
	if end < len(plain) {
		minEnd := start
		if first >= 0 {
			minEnd = ms[last].end
		}
		if sp := strings.LastIndexByte(plain[start:end], ' '); sp >= 0 && start+sp > minEnd && end-(start+sp) < 24 {
			end = start + sp
		}
	}
	return start, end
}

// densest returns the first and last match of the window of width bytes
// that holds the most different terms, then the most matches, the
// earliest of equals; -1, -1 without matches.
func densest(ms []snippetMatch, width int) (int, int) {
	if len(ms) == 0 {
		return -1, -1
	}
	count := map[int]int{}
	bestFirst, bestLast, bestKinds, bestN := 0, 0, 0, 0
	j := 0
	for i := range ms {
		if j < i {
			j = i
		}
		for j < len(ms) && ms[j].end-ms[i].start <= width {
			count[ms[j].term]++
			j++
		}
		if j == i { // one match longer than the window
			if bestN == 0 {
				bestFirst, bestLast, bestKinds, bestN = i, i, 1, 1
			}
			continue
		}
		if kinds, n := len(count), j-i; kinds > bestKinds || (kinds == bestKinds && n > bestN) {
			bestFirst, bestLast, bestKinds, bestN = i, j-1, kinds, n
		}
		if count[ms[i].term]--; count[ms[i].term] == 0 {
			delete(count, ms[i].term)
		}
	}
	return bestFirst, bestLast
}
