package core

import (
	"strings"
	"unicode/utf8"
)

// StripEscapes removes terminal escape sequences from s: CSI sequences
// (ESC [ … or the C1 CSI, colours and cursor moves), OSC strings (ESC ] …
// up to BEL or ESC \, window titles and hyperlinks), the other string
// sequences (DCS, SOS, PM, APC) and two-character escapes. Transcripts
// carry them from the tools whose output they record; shown as text they
// are noise, and interpreted by a terminal they are an attack. Other
// control characters are left to the caller.
func StripEscapes(s string) string {
	if !strings.ContainsRune(s, 0x1b) && !strings.ContainsRune(s, 0x9b) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x9b:
			i = skipCSI(s, i+n)
		case r != 0x1b:
			b.WriteString(s[i : i+n])
			i += n
		case i+1 >= len(s):
			i++
		default:
			i = skipEscape(s, i+1)
		}
	}
	return b.String()
}

// skipEscape returns the end of the escape sequence whose introducer
// follows ESC at i.
func skipEscape(s string, i int) int {
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	if s[i] >= 0x20 && s[i] <= 0x7e {
		return i + 1
	}
	return i // ESC before a non-ASCII byte: drop the ESC alone
}

// skipCSI skips parameter and intermediate bytes and the final byte of a
// CSI sequence starting at i.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a string sequence up to its terminator (BEL, ESC \ or
// the C1 ST), or to the end of s.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}
