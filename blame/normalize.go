package blame

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Key levels: how loosely a committed line is compared with a written one.
// Each level forgives what the one before it does and more.
const (
	levelExact      = iota // the line trimmed of surrounding whitespace
	levelWhitespace        // whitespace inside the line too (spaceKey)
	levelFormatted         // also the quote style and trailing separators (formatKey)
	nLevels
)

// levelKind is the match kind a level records.
var levelKind = [nLevels]string{MatchExactLine, MatchWhitespace, MatchFormatted}

// lineKeys are a line's keys at every level, the looser ones worked out
// when first asked for (most lines of a commit match exactly).
type lineKeys struct {
	k    [nLevels]string
	done bool
}

func keysOf(trimmed string) lineKeys { return lineKeys{k: [nLevels]string{trimmed}} }

// at returns the key at level lvl.
func (k *lineKeys) at(lvl int) string {
	if lvl > levelExact && !k.done {
		sp := spaceKey(k.k[levelExact])
		k.k[levelWhitespace], k.k[levelFormatted], k.done = sp, finishKey(quoteKey(sp)), true
	}
	return k.k[lvl]
}

// near reports whether two lines agree as neighbours (formatted keys).
func near(a, b *lineKeys) bool {
	return a.k[levelExact] == b.k[levelExact] || a.at(levelFormatted) == b.at(levelFormatted)
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// spaceKey drops the whitespace of a line except one space between two
// word characters, so "a*b", "a * b" and "a  *  b" are one key while
// "return x" and "returnx" stay apart: what gofmt, prettier and black do
// to the spacing of a line.
func spaceKey(s string) string {
	if !strings.ContainsFunc(s, unicode.IsSpace) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var last rune // the last rune written
	gap := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			gap = true
			continue
		}
		if gap && isWord(last) && isWord(r) {
			b.WriteByte(' ')
		}
		gap = false
		b.WriteRune(r)
		last = r
	}
	return b.String()
}

// quoteKey makes single quotes double ones (prettier's and black's default
// string style).
func quoteKey(s string) string { return strings.ReplaceAll(s, "'", `"`) }

// finishKey drops the separators formatters add or remove: a comma right
// before a closing bracket (a trailing comma), and a comma or semicolon
// ending the text.
func finishKey(s string) string {
	if !strings.Contains(s, ",") && !strings.HasSuffix(s, ";") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == ',' && i+1 < len(s) && strings.IndexByte(")]}", s[i+1]) >= 0 {
			continue
		}
		b.WriteByte(s[i])
	}
	out := b.String()
	for len(out) > 0 && (out[len(out)-1] == ',' || out[len(out)-1] == ';') {
		out = out[:len(out)-1]
	}
	return out
}

// joinKeys joins the quote keys of lines as one text, with a space where
// the line break stood between two word characters.
func joinKeys(b *strings.Builder, k string) {
	if b.Len() > 0 && k != "" {
		last, _ := utf8.DecodeLastRuneInString(b.String())
		first, _ := utf8.DecodeRuneInString(k)
		if isWord(last) && isWord(first) {
			b.WriteByte(' ')
		}
	}
	b.WriteString(k)
}

// trivial lines (blank, braces, punctuation) match only next to a
// non-trivial line the same event wrote.
func trivial(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
