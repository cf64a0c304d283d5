package index

import (
	"github.com/blevesearch/bleve/v2/analysis"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// wordTokens returns the tokens bleve's unicode tokenizer finds in input
// (the words of Unicode's word segmentation, UAX #29), the same terms,
// offsets, positions and types, at a fraction of its cost: the text is cut
// at ASCII white space, where a word always ends, and each field that is
// all ASCII is segmented here by the rules below, the others by the
// unicode tokenizer. The unicode tokenizer was half of the code analyzer's
// time, and the texts of agent histories are mostly ASCII.
// TestWordTokensAsUnicode compares the two on generated and hostile texts.
// On invalid UTF-8, which import replaces before indexing, the segmenter
// gives up on the rest of a text at some bytes or joins them across a
// space; wordTokens keeps to its fields.
//
// The rules for ASCII (UAX #29 with Unicode 8's word-break properties, as
// the segmenter bleve uses implements them): a word is a run of letters,
// digits and underscores in which one colon, full stop or apostrophe may
// stand between two letters, and one comma, semicolon, full stop or
// apostrophe between two digits. A word holding no letter and at least one
// digit is a number; any other word, an underscore alone included, is
// alphanumeric. Every other byte is a boundary on both sides.
func wordTokens(input []byte) analysis.TokenStream {
	return appendWordTokens(nil, &tokenArena{size: len(input)/6 + 1}, input)
}

// appendWordTokens appends wordTokens(input) to out, its tokens taken from
// arena.
func appendWordTokens(out analysis.TokenStream, arena *tokenArena, input []byte) analysis.TokenStream {
	if out == nil {
		out = make(analysis.TokenStream, 0, len(input)/6+1)
	}
	pos := 1
	eachWord(input, func(term []byte, start, end int, typ analysis.TokenType) {
		t := arena.token()
		*t = analysis.Token{Term: term, Start: start, End: end, Position: pos, Type: typ}
		out = append(out, t)
		pos++
	})
	return out
}

// eachWord hands fn the terms, offsets and types of wordTokens(input) in
// order, without making tokens.
func eachWord(input []byte, fn func(term []byte, start, end int, typ analysis.TokenType)) {
	for i := 0; i < len(input); {
		if isASCIISpace(input[i]) {
			i++
			continue
		}
		end, ascii := i, true
		for end < len(input) && !isASCIISpace(input[end]) {
			if input[end] >= 0x80 {
				ascii = false
			}
			end++
		}
		if ascii {
			asciiWords(input, i, end, fn)
		} else {
			for _, t := range bleveunicode.NewUnicodeTokenizer().Tokenize(input[i:end]) {
				fn(t.Term, i+t.Start, i+t.End, t.Type)
			}
		}
		i = end
	}
}

// tokenArena hands out tokens from blocks that reset keeps for reuse, so
// that a token stays where it is until then.
type tokenArena struct {
	blocks [][]analysis.Token
	cur    int
	size   int // the capacity of the next block; arenaBlock when zero
}

const arenaBlock = 256

func (a *tokenArena) token() *analysis.Token {
	for a.cur < len(a.blocks) && len(a.blocks[a.cur]) == cap(a.blocks[a.cur]) {
		a.cur++
	}
	if a.cur == len(a.blocks) {
		n := arenaBlock
		if a.size > 0 {
			n, a.size = max(16, a.size), 0
		}
		a.blocks = append(a.blocks, make([]analysis.Token, 0, n))
	}
	b := &a.blocks[a.cur]
	*b = append(*b, analysis.Token{})
	return &(*b)[len(*b)-1]
}

// reset makes every block free again; the tokens handed out before must no
// longer be used.
func (a *tokenArena) reset() {
	for i := range a.blocks[:min(a.cur+1, len(a.blocks))] {
		a.blocks[i] = a.blocks[i][:0]
	}
	a.cur = 0
}

// asciiWords hands add the words of input[from:to], which is ASCII.
func asciiWords(input []byte, from, to int, add func([]byte, int, int, analysis.TokenType)) {
	for i := from; i < to; {
		if !isASCIIWordByte(input[i]) {
			i++
			continue
		}
		start, letter, digit := i, false, false
	word:
		for ; i < to; i++ {
			switch c := input[i]; {
			case isASCIILetter(c):
				letter = true
			case isASCIIDigit(c):
				digit = true
			case c == '_':
			case i+1 < to && i > start && midJoins(input[i-1], c, input[i+1]):
				// the byte after it is a letter or digit: the next round
				// takes it
			default:
				break word
			}
		}
		typ := analysis.AlphaNumeric
		if digit && !letter {
			typ = analysis.Numeric
		}
		add(input[start:i], start, i, typ)
	}
}

// midJoins reports whether the punctuation c between prev and next stays
// inside a word (UAX #29 rules WB6, WB7, WB11 and WB12).
func midJoins(prev, c, next byte) bool {
	switch {
	case isASCIILetter(prev) && isASCIILetter(next):
		return c == ':' || c == '.' || c == '\''
	case isASCIIDigit(prev) && isASCIIDigit(next):
		return c == ',' || c == ';' || c == '.' || c == '\''
	}
	return false
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

func isASCIIWordByte(c byte) bool { return isASCIILetter(c) || isASCIIDigit(c) || c == '_' }
