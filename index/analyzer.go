package index

import (
	"bytes"
	"hash/maphash"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// CodeAnalyzer is the name under which the code-aware analyzer of a group's
// joined text is registered with bleve: the text field's analyzer up to
// format 2, which shards of that format name in their mapping (they open,
// and report ErrShardFormat). Format 3 analyzes a group as it is built
// (groupTerms) with the same tokens.
const CodeAnalyzer = "ctx_code"

// QueryAnalyzer analyzes query text. It is bleve's standard analyzer: every
// token it produces from a piece of text is also produced by CodeAnalyzer
// from the same text, so indexed and queried forms meet.
const QueryAnalyzer = "standard"

// maxTermBytes bounds an indexed term; longer ones (base64 blobs, minified
// code) are dropped: nobody types them and they bloat the term dictionary.
const maxTermBytes = 256

// maxDedup bounds the per-compound duplicate check; past it, repeats are
// indexed again (only their term frequency grows).
const maxDedup = 64

// TermsAnalyzer is the name of the analyzer of the text field since
// format 3: the group's text arrives analyzed already (see groupTerms), as
// its terms separated by termSep, and the analyzer only splits them.
const TermsAnalyzer = "ctx_terms"

// termSep separates the terms of a group's analyzed text: no term holds a
// control character.
const termSep = '\x1f'

func init() {
	if err := registry.RegisterTokenizer(CodeAnalyzer, newCodeTokenizer); err != nil {
		panic(err)
	}
	if err := registry.RegisterAnalyzer(CodeAnalyzer, newCodeAnalyzer); err != nil {
		panic(err)
	}
	if err := registry.RegisterAnalyzer(TermsAnalyzer, func(map[string]interface{}, *registry.Cache) (analysis.Analyzer, error) {
		return termsAnalyzer{}, nil
	}); err != nil {
		panic(err)
	}
}

// termsAnalyzer splits a group's analyzed text on termSep, a token per term.
type termsAnalyzer struct{}

func (termsAnalyzer) Analyze(input []byte) analysis.TokenStream {
	out := make(analysis.TokenStream, 0, bytes.Count(input, []byte{termSep})+1)
	toks := make([]analysis.Token, 0, cap(out))
	start := 0
	for i := 0; i <= len(input); i++ {
		if i < len(input) && input[i] != termSep {
			continue
		}
		if i > start {
			toks = append(toks, analysis.Token{Term: input[start:i], Start: start, End: i,
				Position: len(toks) + 1, Type: analysis.AlphaNumeric})
			out = append(out, &toks[len(toks)-1])
		}
		start = i + 1
	}
	return out
}

// groupTerms appends to b the analyzed text of a group's event as the
// group's text field holds it: eventTerm, then each distinct indexed term
// of the event once, each after termSep; it returns the event's length in
// tokens (its repeats included) as the code-aware analysis of the event
// alone counts them, which BM25 normalises an event's score by. The
// indexed terms are that analysis without its derived forms (compounds,
// path suffixes and folded identifiers: see codeTokenizer's lean mode),
// which a search finds through the terms they are made of and checks on
// the event's text. sc is the caller's scratch space, nil for a new one.
// The emitter hands each term to a sink (leanSink) as it finds it, making
// no token (TestGroupTermsAsTokens: the same bytes as through tokens).
func groupTerms(b []byte, text string, sc *termScratch) ([]byte, int) {
	if sc == nil {
		sc = &termScratch{}
	}
	if len(b) > 0 {
		b = append(b, termSep)
	}
	b = append(b, eventTerm...)
	sc.input = append(sc.input[:0], text...)
	sc.e.lean = true
	sc.set.reset(len(text) / 4) // room for a distinct term every 4 bytes: the set seldom grows
	sc.sink = leanSink{b: b, set: &sc.set, stop: stopFilter()}
	sc.e.sink = &sc.sink
	_, derived := sc.e.run(sc.input, false)
	sc.e.sink = nil
	return sc.sink.b, sc.sink.n + derived
}

// leanSink is where the emitter of groupTerms puts the terms it emits,
// instead of tokens: each term that is not a stop word is counted, and
// appended to b after termSep unless the event has it already.
type leanSink struct {
	b    []byte
	set  *termSet
	n    int
	stop *stopList
}

func (s *leanSink) add(term []byte) {
	if s.stop.has(term) {
		return
	}
	s.n++
	at := len(s.b) + 1
	s.b = append(s.b, termSep)
	s.b = append(s.b, term...)
	if !s.set.add(s.b, at, len(s.b)) {
		s.b = s.b[:at-1] // a repeat
	}
}

// termScratch is what groupTerms reuses from one event to the next, and
// buildShardDoc from one group to the next: one per goroutine building
// groups.
type termScratch struct {
	input []byte
	e     emitter
	set   termSet
	sink  leanSink
	group []byte // the text of the group being built
}

// termSet holds the distinct terms of one event by their place in the
// buffer they were appended to, whose bytes do not change meanwhile.
type termSet struct {
	seed  maphash.Seed
	slots []termSlot // open addressing; a zero end is empty
	n     int
}

type termSlot struct{ start, end int32 }

// reset empties the set, sized for about n terms.
func (s *termSet) reset(n int) {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
	}
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if cap(s.slots) < size {
		s.slots = make([]termSlot, size)
	} else {
		s.slots = s.slots[:size] // the table is as small as the event: clearing it is too
		clear(s.slots)
	}
	s.n = 0
}

// add records b[start:end] and reports whether it was not there yet.
func (s *termSet) add(b []byte, start, end int) bool {
	if 2*(s.n+1) > len(s.slots) {
		s.grow(b)
	}
	term := b[start:end]
	mask := len(s.slots) - 1
	for i := int(maphash.Bytes(s.seed, term)) & mask; ; i = (i + 1) & mask {
		sl := s.slots[i]
		if sl.end == 0 {
			s.slots[i] = termSlot{int32(start), int32(end)}
			s.n++
			return true
		}
		if bytes.Equal(b[sl.start:sl.end], term) {
			return false
		}
	}
}

func (s *termSet) grow(b []byte) {
	old := s.slots
	s.slots = make([]termSlot, 2*len(old))
	mask := len(s.slots) - 1
	for _, sl := range old {
		if sl.end == 0 {
			continue
		}
		i := int(maphash.Bytes(s.seed, b[sl.start:sl.end])) & mask
		for s.slots[i].end != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = sl
	}
}

func newCodeTokenizer(map[string]interface{}, *registry.Cache) (analysis.Tokenizer, error) {
	return codeTokenizer{groups: true}, nil
}

// newCodeAnalyzer is the analyzer of a group's text (see groupText): the
// terms of each event once, after the event's marker term.
func newCodeAnalyzer(_ map[string]interface{}, cache *registry.Cache) (analysis.Analyzer, error) {
	tok, err := cache.TokenizerNamed(CodeAnalyzer)
	if err != nil {
		return nil, err
	}
	stop, err := cache.TokenFilterNamed(en.StopName)
	if err != nil {
		return nil, err
	}
	return &analysis.DefaultAnalyzer{Tokenizer: tok, TokenFilters: []analysis.TokenFilter{stop, oncePerEvent{}}}, nil
}

// newEventAnalyzer is the code-aware analysis of one event's text with its
// repeats, as a search scores an event of a matched group.
func newEventAnalyzer(cache *registry.Cache) (analysis.Analyzer, error) {
	stop, err := cache.TokenFilterNamed(en.StopName)
	if err != nil {
		return nil, err
	}
	return &analysis.DefaultAnalyzer{Tokenizer: codeTokenizer{}, TokenFilters: []analysis.TokenFilter{stop}}, nil
}

// eventSep separates the events of a group's text, and eventTerm is the
// term the group analyzer emits for each event (no text term can hold a
// NUL): its frequency in a group is the group's event count, as the
// frequency of any other term is the number of the group's events holding
// it (oncePerEvent). Summed over a generation's groups they are the
// document count and document frequencies of a per-event index, which
// BM25 scores events with.
const (
	eventSep  = '\x1e'
	eventTerm = "\x00event"
)

// oncePerEvent drops the repeats of a term within one event of a group.
type oncePerEvent struct{}

func (oncePerEvent) Filter(in analysis.TokenStream) analysis.TokenStream {
	seen := map[string]struct{}{}
	out := in[:0]
	for _, t := range in {
		if string(t.Term) == eventTerm {
			clear(seen)
			out = append(out, t)
			continue
		}
		if _, dup := seen[string(t.Term)]; dup {
			continue
		}
		seen[string(t.Term)] = struct{}{}
		out = append(out, t)
	}
	return out
}

// codeTokenizer emits, lowercased and without repeats within one compound:
// each compound (word runs joined by . / - :, such as internal/store/index.go
// or s.parseConfig) first, then the tokens the standard unicode tokenizer
// finds in it (index.go), then their parts split on _ . : and at camelCase
// and ACRONYMWord boundaries, plus the folded form of every identifier
// (parse_config and parseConfig both give parseconfig). Runs of hex digits
// are never split, so commit hashes and ids stay whole. With groups set, it
// emits eventTerm at the start and after each eventSep. In lean mode (the
// terms a group indexes, see groupTerms and emitter.lean) the derived
// forms, compounds, path suffixes and folds, are counted instead of
// emitted (stop words aside, as the stop filter after it would drop them):
// the index holds the terms they are made of, and a search checks the
// forms on an event's text.
type codeTokenizer struct{ groups bool }

type span struct{ start, end int }

func (t codeTokenizer) Tokenize(input []byte) analysis.TokenStream {
	e := emitter{arena: tokenArena{size: len(input)/3 + 1}}
	toks, _ := e.run(input, t.groups)
	return toks
}

// run returns the tokens of input and, in lean mode, the number of derived
// forms counted instead. It reuses e's arenas: the tokens of the previous
// run must no longer be used.
func (e *emitter) run(input []byte, groups bool) (analysis.TokenStream, int) {
	e.arena.reset()
	e.input, e.pos, e.derived, e.buf, e.seen = input, 0, 0, e.buf[:0], e.seen[:0]
	if e.sink != nil && !groups {
		e.c, e.cDone = span{}, false
		eachWord(input, e.sinkWord)
		return nil, e.derived
	}
	e.base = appendWordTokens(e.base[:0], &e.arena, input)
	base := e.base
	if e.out == nil {
		e.out = make(analysis.TokenStream, 0, 2*len(base)+1)
	}
	e.out = e.out[:0]
	nextSep := len(input)
	if groups {
		e.marker(0)
		nextSep = sepAfter(input, 0)
	}
	e.c, e.cDone = span{}, false
	for _, tok := range base {
		for nextSep < tok.Start {
			e.marker(nextSep)
			nextSep = sepAfter(input, nextSep+1)
		}
		e.enterWord(tok.Start, tok.End)
		if isPlainWord(tok.Term) {
			e.emitBase(tok)
			continue
		}
		e.emit(tok.Start, tok.End)
		e.parts(tok.Start, tok.End)
	}
	for nextSep < len(input) {
		e.marker(nextSep)
		nextSep = sepAfter(input, nextSep+1)
	}
	return e.out, e.derived
}

// enterWord moves the emitter to the word input[start:end]: to the
// compound that holds it, whose derived forms it emits once (before the
// compound's first word), and otherwise to a fresh set of the terms seen.
func (e *emitter) enterWord(start, end int) {
	for e.c.end <= start && e.c.end < len(e.input) {
		e.c, e.cDone = nextCompound(e.input, e.c.end), false
	}
	c := e.c
	if start < c.start || end > c.end {
		e.reset()
		return
	}
	if !e.cDone {
		e.reset()
		if c.end-c.start > end-start {
			e.derive(e.lower(e.input[c.start:c.end]), c.start, c.end)
			e.pathSuffixes(c)
		}
		e.cDone = true
	}
}

// sinkWord is run's loop for one word of the unicode tokenizer when the
// emitter has a sink: the same steps on the word's bytes, without tokens.
func (e *emitter) sinkWord(term []byte, start, end int, _ analysis.TokenType) {
	e.enterWord(start, end)
	if isPlainWord(term) {
		if len(term) <= maxTermBytes && !e.isSeen(term) {
			e.sink.add(term)
		}
		return
	}
	e.emit(start, end)
	e.parts(start, end)
}

// sepAfter is the offset of the first eventSep at or after from, or
// len(input).
func sepAfter(input []byte, from int) int {
	if i := bytes.IndexByte(input[from:], eventSep); i >= 0 {
		return from + i
	}
	return len(input)
}

// marker emits eventTerm for the event starting at offset at.
func (e *emitter) marker(at int) {
	e.reset()
	e.pos++
	e.out = append(e.out, &analysis.Token{Term: []byte(eventTerm), Start: at, End: at, Position: e.pos,
		Type: analysis.AlphaNumeric})
}

// emitter appends tokens, skipping terms already emitted for the current
// compound. Tokens and lowercased terms come from arenas to keep
// allocations per document low.
type emitter struct {
	input []byte
	out   analysis.TokenStream
	seen  [][]byte
	pos   int

	base                analysis.TokenStream
	arena               tokenArena
	buf                 []byte
	segs, words, pieces []span

	lean    bool // derived forms are counted (derived), not emitted
	derived int
	sink    *leanSink // when set, what is emitted goes there instead of out
	c       span      // the compound of the current word (enterWord)
	cDone   bool      // its derived forms are emitted
}

func (e *emitter) reset() { e.seen = e.seen[:0] }

// emitBase emits a token of the unicode tokenizer that needs no lowercasing
// and has no parts, reusing it.
func (e *emitter) emitBase(tok *analysis.Token) {
	if len(tok.Term) > maxTermBytes || e.isSeen(tok.Term) {
		return
	}
	e.pos++
	tok.Position = e.pos
	e.out = append(e.out, tok)
}

func (e *emitter) emit(start, end int) {
	e.emitTerm(e.lower(e.input[start:end]), start, end)
}

// derive emits a derived form (a compound, a path suffix, a folded
// identifier), or in lean mode counts it.
func (e *emitter) derive(term []byte, start, end int) {
	if !e.lean {
		e.emitTerm(term, start, end)
		return
	}
	if len(term) == 0 || len(term) > maxTermBytes || e.isSeen(term) {
		return
	}
	if !isStopWord(term) {
		e.derived++
	}
}

func (e *emitter) emitTerm(term []byte, start, end int) {
	if len(term) == 0 || len(term) > maxTermBytes || e.isSeen(term) {
		return
	}
	if e.sink != nil {
		e.sink.add(term)
		return
	}
	e.pos++
	t := e.arena.token()
	*t = analysis.Token{Term: term, Start: start, End: end, Position: e.pos, Type: analysis.AlphaNumeric}
	e.out = append(e.out, t)
}

// isSeen reports whether term was emitted for the current compound, and
// records it if not.
func (e *emitter) isSeen(term []byte) bool {
	for _, s := range e.seen {
		if bytes.Equal(s, term) {
			return true
		}
	}
	if len(e.seen) < maxDedup {
		e.seen = append(e.seen, term)
	}
	return false
}

// lower returns b lowercased: b itself when it already is, else a copy in
// the emitter's arena.
func (e *emitter) lower(b []byte) []byte {
	for _, c := range b {
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return appendLower(e.alloc(len(b)), b)
		}
	}
	return b
}

// alloc returns an empty slice with capacity n from the arena; appending
// past n reallocates instead of overwriting the arena.
func (e *emitter) alloc(n int) []byte {
	if cap(e.buf)-len(e.buf) < n {
		e.buf = make([]byte, 0, max(min(4096, 2*len(e.input)), n))
	}
	l := len(e.buf)
	e.buf = e.buf[:l+n]
	return e.buf[l : l : l+n]
}

// appendLower appends b lowercased to dst.
func appendLower(dst, b []byte) []byte {
	for i, c := range b {
		if c >= utf8.RuneSelf {
			return append(dst, bytes.ToLower(b[i:])...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// maxSuffixes bounds the path suffixes emitted for one compound.
const maxSuffixes = 8

// pathSuffixes emits the suffixes of a compound that start after a slash
// (store/index.go for internal/store/index.go), so that a relative path
// matches the absolute one.
func (e *emitter) pathSuffixes(c span) {
	n := 0
	for i := c.start; i < c.end && n < maxSuffixes; i++ {
		if e.input[i] != '/' {
			continue
		}
		j := i + 1
		for j < c.end && isJoiner(rune(e.input[j])) {
			j++
		}
		if j < c.end && bytes.IndexByte(e.input[j:c.end], '/') >= 0 {
			e.derive(e.lower(e.input[j:c.end]), j, c.end)
			n++
		}
	}
}

// parts emits the segments of a standard token split on punctuation other
// than '_' and apostrophes, and for each identifier segment its words, their
// camelCase parts and its folded form.
func (e *emitter) parts(start, end int) {
	e.segs = splitSegments(e.segs[:0], e.input, start, end)
	for _, seg := range e.segs {
		if seg != (span{start, end}) {
			e.emit(seg.start, seg.end)
		}
		e.words = splitUnderscores(e.words[:0], e.input, seg.start, seg.end)
		e.pieces = e.pieces[:0]
		for _, w := range e.words {
			if w != seg {
				e.emit(w.start, w.end)
			}
			e.pieces = camelSpans(e.pieces, e.input, w)
		}
		if len(e.pieces) < 2 || hasIDPiece(e.input, e.pieces) {
			continue
		}
		fold := e.alloc(seg.end - seg.start)
		for _, p := range e.pieces {
			e.emit(p.start, p.end)
			fold = appendLower(fold, e.input[p.start:p.end])
		}
		e.derive(fold, seg.start, seg.end)
	}
}

// nextCompound returns the first compound at or after from: a run of word
// runes, possibly joined by runs of . / - : between word runes. It returns an
// empty span at len(input) when there is none.
func nextCompound(input []byte, from int) span {
	i := from
	for i < len(input) {
		if c := input[i]; c < utf8.RuneSelf {
			if asciiClass[c]&classWord != 0 {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(input[i:])
		if isWordRune(r) {
			break
		}
		i += n
	}
	c := span{start: i, end: i}
	for i < len(input) {
		if b := input[i]; b < utf8.RuneSelf {
			switch k := asciiClass[b]; {
			case k&classWord != 0:
				i++
				c.end = i
				continue
			case k&classJoiner != 0:
				i++
				continue
			}
			break
		}
		r, n := utf8.DecodeRune(input[i:])
		if isWordRune(r) {
			i += n
			c.end = i
			continue
		}
		if !isJoiner(r) {
			break
		}
		i += n
	}
	return c
}

// Classes of ASCII bytes (asciiClass).
const (
	classWord   = 1 << iota // isWordRune
	classJoiner             // isJoiner
	classSegSep             // isSegmentSep
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range rune(utf8.RuneSelf) {
		if isWordRune(c) {
			t[c] |= classWord
		}
		if isJoiner(c) {
			t[c] |= classJoiner
		}
		if isSegmentSep(c) {
			t[c] |= classSegSep
		}
	}
	return t
}()

// splitSegments appends to out the pieces of input[start:end] between the
// runes for which isSegmentSep is true.
func splitSegments(out []span, input []byte, start, end int) []span {
	from := start
	for i := start; i < end; {
		n, sep := 1, false
		if c := input[i]; c < utf8.RuneSelf {
			sep = asciiClass[c]&classSegSep != 0
		} else {
			var r rune
			r, n = utf8.DecodeRune(input[i:end])
			sep = isSegmentSep(r)
		}
		if sep {
			if i > from {
				out = append(out, span{from, i})
			}
			from = i + n
		}
		i += n
	}
	if end > from {
		out = append(out, span{from, end})
	}
	return out
}

// splitUnderscores appends to out the pieces of input[start:end] between
// underscores (a byte no multi-byte rune holds).
func splitUnderscores(out []span, input []byte, start, end int) []span {
	from := start
	for from <= end {
		i := bytes.IndexByte(input[from:end], '_')
		if i < 0 {
			i = end - from
		}
		if i > 0 {
			out = append(out, span{from, from + i})
		}
		from += i + 1
	}
	return out
}

// camelSpans appends the parts of a word split at lower→Upper, digit→Upper and ACRONYM→Word
// boundaries (parseConfig, base64Encode, HTTPServer). A word made only of hex
// digits is returned whole.
func camelSpans(out []span, input []byte, w span) []span {
	word := input[w.start:w.end]
	if isHex(word) {
		return append(out, w)
	}
	from := w.start
	var prev rune
	for i := w.start; i < w.end; {
		r, n := decodeRune(input[i:w.end])
		if i > from && unicode.IsUpper(r) {
			next, _ := decodeRune(input[i+n : w.end])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) ||
				(unicode.IsUpper(prev) && unicode.IsLower(next)) {
				out = append(out, span{from, i})
				from = i
			}
		}
		prev = r
		i += n
	}
	return append(out, span{from, w.end})
}

// decodeRune is utf8.DecodeRune with a fast path for ASCII.
func decodeRune(b []byte) (rune, int) {
	if len(b) > 0 && b[0] < utf8.RuneSelf {
		return rune(b[0]), 1
	}
	return utf8.DecodeRune(b)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isJoiner(r rune) bool { return r == '.' || r == '/' || r == '-' || r == ':' }

func isSegmentSep(r rune) bool {
	if r < utf8.RuneSelf {
		return !isWordRune(r) && r != '\''
	}
	return r != '_' && r != '\'' && r != '’' && !unicode.IsLetter(r) && !unicode.IsDigit(r) &&
		!unicode.Is(unicode.Mn, r)
}

// hasIDPiece reports whether a piece looks like an id or a number (7+ hex
// digits, or only digits); folding such identifiers adds only noise terms.
func hasIDPiece(input []byte, pieces []span) bool {
	for _, p := range pieces {
		b := input[p.start:p.end]
		if isHex(b) && (len(b) >= 7 || isDigits(b)) {
			return true
		}
	}
	return false
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isPlainWord reports whether b is ASCII lowercase letters and digits only,
// which has no parts (most prose).
func isPlainWord(b []byte) bool {
	for _, c := range b {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return len(b) > 0
}
