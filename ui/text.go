package ui

import (
	"ctx/core"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxShown bounds the text of one event on a page; the rest is one link
// away (/raw/ID, served as text/plain).
const maxShown = 32 << 10

// clean makes hostile text readable and inert on a page (html/template
// escapes it; this removes what escaping leaves visible): terminal escape
// sequences are dropped (core.StripEscapes), other control characters other
// than newline and tab are shown as \uXXXX, invalid UTF-8 becomes U+FFFD.
func clean(s string) string {
	if isPlain(s) {
		return s
	}
	s = core.StripEscapes(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				break // CRLF reads as a newline
			}
			b.WriteByte('\n')
		case unicode.IsControl(r) || r == 0x2028 || r == 0x2029 || r == 0x202e || r == 0x202d:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r) // RuneError for invalid bytes
		}
		i += n
	}
	return b.String()
}

// isPlain reports whether s needs no cleaning (the common case).
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return true
}

// clip returns at most maxShown bytes of s (at a rune boundary) and how
// many bytes it left out.
func clip(s string, limit int) (string, int) {
	if len(s) <= limit {
		return s, 0
	}
	cut := core.RuneCut(s, limit)
	return s[:cut], len(s) - cut
}

// oneLine cleans s, folds it onto one line and bounds it to 200 runes.
func oneLine(s string) string {
	s, _ = clip(s, 4096)
	f := strings.Join(strings.Fields(clean(s)), " ")
	if utf8.RuneCountInString(f) > 200 {
		r := []rune(f)
		f = string(r[:200]) + "…"
	}
	return f
}

// segment is a piece of a snippet, marked when it matches a query term.
type segment struct {
	Text string
	Mark bool
}

// terms are the lowercased words of a query, the way highlighting sees them.
func terms(q string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(w) > 1 && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// highlight splits text into segments, marking each occurrence of a term
// (case-insensitive). Text whose lowercase form changes length is not
// marked rather than marked at the wrong place.
func highlight(text string, ts []string) []segment {
	lower := strings.ToLower(text)
	if len(ts) == 0 || len(lower) != len(text) {
		return []segment{{Text: text}}
	}
	var out []segment
	start := 0
	for i := 0; i < len(lower); {
		n := 0
		if i > 0 && wordByte(lower[i-1]) {
			i++
			continue
		}
		for _, t := range ts {
			if strings.HasPrefix(lower[i:], t) && len(t) > n {
				n = len(t)
			}
		}
		if n == 0 {
			i++
			continue
		}
		if i > start {
			out = append(out, segment{Text: text[start:i]})
		}
		out = append(out, segment{Text: text[i : i+n], Mark: true})
		i += n
		start = i
	}
	if start < len(text) {
		out = append(out, segment{Text: text[start:]})
	}
	return out
}

// wordByte reports whether b continues a word (ASCII letters and digits,
// and any byte of a multi-byte rune).
func wordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}
