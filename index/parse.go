package index

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// Query string syntax (Query.Text):
//
//	word          the word (in any of its code-aware forms) must appear
//	"a b c"       the words must appear in this order, next to each other
//	-word -"a b"  excluded (a word of three or more characters starting
//	              with a letter after the dash: -n, -la, --all, -32000
//	              stay words)
//	a OR b        either (OR in capitals, between two words or phrases)
//	provider:P role:R type:T file:F
//	              filters, ANDed with the other filters (file: a path or a
//	              file name a tool touched)
//
// Everything else is a word: punctuation, regex metacharacters and unknown
// prefixes (http://x, error:) are searched as the text they contain. An
// unbalanced quote is ignored.

// parsed is a query string taken apart.
type parsed struct {
	// groups are ANDed; the items of one group are alternatives (OR).
	groups [][]item
	// not holds excluded items.
	not []item
	// fields holds the field: filters by field name.
	fields map[string][]string
	// plain is every free word in order (phrases' words included, excluded
	// and field items left out): a document holding them all next to each
	// other in this order matches the whole query.
	plain []string
}

// item is a word or a phrase as typed.
type item struct {
	text   string
	phrase bool
}

// queryFields maps the field names of the syntax to index fields.
var queryFields = map[string]string{
	"provider": fieldProvider, "role": fieldRole, "type": fieldType, "file": fieldFiles,
}

// maxParsedItems bounds the items taken from one query string; the rest is
// ignored (the index bounds the analyzed terms too).
const maxParsedItems = 64

func parseQuery(text string) parsed {
	p := parsed{fields: map[string][]string{}}
	orNext := false
	for _, tok := range lexQuery(text) {
		if len(p.groups)+len(p.not) >= maxParsedItems {
			break
		}
		if !tok.phrase && tok.text == "OR" {
			orNext = len(p.groups) > 0
			continue
		}
		neg := false
		if !tok.phrase && isExclusion(tok.text) {
			neg, tok.text = true, tok.text[1:]
		} else if tok.neg {
			neg = true
		}
		if f, v, ok := fieldItem(tok); ok {
			if !neg {
				p.fields[f] = append(p.fields[f], v)
			}
			orNext = false
			continue
		}
		if neg {
			p.not = append(p.not, item{text: tok.text, phrase: tok.phrase})
			orNext = false
			continue
		}
		it := item{text: tok.text, phrase: tok.phrase}
		p.plain = append(p.plain, words(tok.text)...)
		if orNext {
			last := len(p.groups) - 1
			p.groups[last] = append(p.groups[last], it)
		} else {
			p.groups = append(p.groups, []item{it})
		}
		orNext = false
	}
	return p
}

// isExclusion reports whether a word is -word: a dash, a letter and at
// least two more characters, so that command-line options (-n, -la,
// --noEmit) and negative numbers (-32000) stay words.
func isExclusion(w string) bool {
	if len(w) < 4 || w[0] != '-' {
		return false
	}
	r, _ := utf8.DecodeRuneInString(w[1:])
	return unicode.IsLetter(r)
}

// fieldItem recognises field:value.
func fieldItem(tok lexed) (field, value string, ok bool) {
	if tok.phrase {
		return "", "", false
	}
	name, value, found := strings.Cut(tok.text, ":")
	f, known := queryFields[strings.ToLower(name)]
	if !found || !known || value == "" {
		return "", "", false
	}
	return f, strings.Trim(value, `"`), true
}

type lexed struct {
	text   string
	phrase bool
	neg    bool // a phrase written -"…"
}

// lexQuery splits a query string into words and quoted phrases. A quote
// without its closing quote is dropped and its text read as words.
func lexQuery(s string) []lexed {
	var out []lexed
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"' || (c == '-' && i+1 < len(s) && s[i+1] == '"'):
			neg := c == '-'
			start := i + 1
			if neg {
				start++
			}
			end := strings.IndexByte(s[start:], '"')
			if end < 0 { // unbalanced: the rest is words
				i = start
				continue
			}
			if ph := strings.TrimSpace(s[start : start+end]); ph != "" {
				out = append(out, lexed{text: ph, phrase: true, neg: neg})
			}
			i = start + end + 1
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r", rune(s[j])) && s[j] != '"' {
				j++
			}
			out = append(out, lexed{text: s[i:j]})
			i = j
		}
	}
	return out
}

// words splits text into lowercase runs of letters and digits: the unit of
// phrase and whole-query matching on an event's text.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// hasRun reports whether words(lower) holds run as consecutive elements
// (containsRun), for lowercased text, without splitting the whole text:
// from each place run[0] starts a word, it reads the words that follow.
func hasRun(lower string, run []string) bool {
	if len(run) == 0 {
		return true
	}
	for from := 0; from < len(lower); {
		at := strings.Index(lower[from:], run[0])
		if at < 0 {
			return false
		}
		at += from
		from = at + 1
		if r, _ := utf8.DecodeLastRuneInString(lower[:at]); at > 0 && isWordChar(r) {
			continue
		}
		if runAt(lower[at:], run) {
			return true
		}
	}
	return false
}

// runAt reports whether the words of s start with run.
func runAt(s string, run []string) bool {
	for _, w := range run {
		i := 0
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if isWordChar(r) {
				break
			}
			i += n
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !isWordChar(r) {
				break
			}
			j += n
		}
		if s[i:j] != w {
			return false
		}
		s = s[j:]
	}
	return true
}

// isWordChar is what words keeps.
func isWordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// containsRun reports whether seq holds run as consecutive elements.
func containsRun(seq, run []string) bool {
	if len(run) == 0 {
		return true
	}
outer:
	for i := 0; i+len(run) <= len(seq); i++ {
		for j := range run {
			if seq[i+j] != run[j] {
				continue outer
			}
		}
		return true
	}
	return false
}

// QueryFields returns the field: filters of a query string by their name in
// the syntax (provider, role, type, file), so that a caller can check their
// values the way it checks the same filters given as flags.
func QueryFields(text string) map[string][]string {
	p := parseQuery(text)
	out := make(map[string][]string, len(p.fields))
	for name, f := range queryFields {
		if v := p.fields[f]; len(v) > 0 {
			out[name] = v
		}
	}
	return out
}

// HighlightTerms returns what a snippet of a hit should show marked for a
// query string: each free word (lowercase, not a common word, not a single
// character) as a one-word term, each quoted phrase and each word of
// several parts (a path, an identifier) as its run of words; excluded
// items and field: filters are left out.
func HighlightTerms(text string) [][]string {
	p := parseQuery(text)
	stop := stopWords()
	seen := map[string]bool{}
	var out [][]string
	add := func(t []string) {
		key := strings.Join(t, " ")
		if len(t) > 0 && !seen[key] {
			seen[key] = true
			out = append(out, t)
		}
	}
	for _, g := range p.groups {
		for _, it := range g {
			if it.phrase {
				add(words(it.text))
				continue
			}
			ws := words(it.text)
			if len(ws) > 1 { // a path or an identifier: whole first
				add(ws)
			}
			for _, w := range ws {
				if utf8.RuneCountInString(w) > 1 && !stop[w] {
					add([]string{w})
				}
			}
		}
	}
	return out
}

// isStopWord reports whether term is on the stop list. It is asked of every
// token of every event: it compares term with the few stop words of its
// length and first byte, where a map lookup hashed every token.
func isStopWord(term []byte) bool { return stopFilter().has(term) }

// stopList is the stop list by length, then first byte, and a bit for each
// (first byte, length) that some stop word has, which turns most words
// away with one load.
type stopList struct {
	lens  [256]uint64 // bit n: a stop word of n bytes starts with the byte
	words [][256][]string
}

func (l *stopList) has(term []byte) bool {
	if len(term) == 0 || len(term) >= len(l.words) || l.lens[term[0]]&(1<<len(term)) == 0 {
		return false
	}
	for _, w := range l.words[len(term)][term[0]] {
		if string(term) == w {
			return true
		}
	}
	return false
}

// stopFilter is the stop list as a stopList.
var stopFilter = sync.OnceValue(func() *stopList {
	l := &stopList{}
	for w := range stopWords() {
		if len(w) >= 64 {
			panic("index: a stop word of 64 bytes or more: " + w)
		}
		for len(l.words) <= len(w) {
			l.words = append(l.words, [256][]string{})
		}
		l.words[len(w)][w[0]] = append(l.words[len(w)][w[0]], w)
		l.lens[w[0]] |= 1 << len(w)
	}
	return l
})

// stopWords is the English stop list of the analyzers.
var stopWords = sync.OnceValue(func() map[string]bool {
	tm := analysis.NewTokenMap()
	_ = tm.LoadBytes(en.EnglishStopWords)
	out := make(map[string]bool, len(tm))
	for w := range tm {
		out[w] = true
	}
	return out
})
