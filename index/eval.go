package index

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"

	"ctx/core"
)

// A shard document is a group of a chunk's events, so a text query matches
// groups; each matched group's events are then scored one by one against
// the same clauses, compiled twice (see compile): as bleve queries over the
// groups and as an eNode tree over one event. The event's terms are those
// the index would have given it alone (CodeAnalyzer over eventText), its
// length normalises BM25 as a per-event document's did, and the idf of each
// term is the generation's, counted over groups.

// eNode is a clause evaluated on one event: its score and whether it
// matches.
type eNode interface {
	eval(c *evCand) (float64, bool)
}

// evCand is an event of a matched group under evaluation. A term's
// frequency is counted on first need, and only for an event whose
// lowercased text holds the term: every term the code analyzer emits is a
// lowercased piece of the text, or such a piece without its underscores
// (the folded form of an identifier), so an event lacking the substring
// lacks the term. The event's length comes from the index (the group's
// stored hit), so its text is never analyzed whole: a term is counted by
// analyzing only the pieces of the text between white space that hold it
// (see count).
type evCand struct {
	// probe is set while an event not yet decoded is tested on its
	// chunk's bytes (mayMatch): e is nil, a term's frequency is 1 when
	// the bytes may hold it, and the clauses on other fields say maybe.
	probe bool
	ch    *Chunk
	i     int

	e        *core.Event
	root     core.SessionID
	text     string
	analyzer analysis.Analyzer

	lowered        bool
	aligned        bool // lower has each rune of text at the same offset
	lower, folded  string
	tf             map[string]int
	all            map[string]int // every term's frequency, when text had to be analyzed whole
	cache          *pieceCache    // the search's, shared by its candidates
	dl             float64
	fileList       []string
	fileListFilled bool
}

// newCand is the candidate of an event whose analyzed text is dl tokens
// long.
func newCand(e *core.Event, root core.SessionID, an analysis.Analyzer, dl int) *evCand {
	return &evCand{e: e, root: root, text: eventText(e), analyzer: an, dl: float64(dl)}
}

// mayMatch reports whether the i-th event of ch can match em, from the
// chunk's bytes alone (Chunk.mayHold): false only when it cannot, so the
// event need not be decoded nor analyzed.
func mayMatch(ch *Chunk, i int, root core.SessionID, em eNode) bool {
	_, ok := em.eval(&evCand{probe: true, ch: ch, i: i, root: root, dl: refLength})
	return ok
}

// lowerText returns the event's text lowercased (strings.ToLower).
func (c *evCand) lowerText() string {
	if !c.lowered {
		c.lowered = true
		c.lower, c.aligned = lowerAligned(c.text)
		if strings.Contains(c.lower, "_") {
			c.folded = strings.ReplaceAll(c.lower, "_", "")
		}
	}
	return c.lower
}

// mayHold reports whether the event's text can hold term.
func (c *evCand) mayHold(term string) bool {
	lower := c.lowerText()
	if c.folded != "" && strings.IndexByte(term, '_') < 0 {
		return strings.Contains(c.folded, term) // holds every such term of lower
	}
	return strings.Contains(lower, term)
}

// freq returns how often the event's analyzed text holds term.
func (c *evCand) freq(term string) int {
	if c.probe {
		if term != "" && c.ch.mayHold(c.i, term) {
			return 1
		}
		return 0
	}
	if term == "" || !c.mayHold(term) {
		return 0
	}
	if n, ok := c.tf[term]; ok {
		return n
	}
	n := c.count(term)
	if c.tf == nil {
		c.tf = make(map[string]int, 4)
	}
	c.tf[term] = n
	return n
}

// count counts term among the tokens of the event's analyzed text. The
// analyzer never makes a token across ASCII white space (a compound is word
// runes and joiners, and Unicode word segmentation breaks at white space),
// so the tokens of the text are those of its white-space-separated pieces
// taken one by one: count analyzes only the pieces whose lowercased form
// holds term, or holds it without underscores. When lowercasing moved a
// rune (a few letters change their UTF-8 length), the text is analyzed
// whole.
func (c *evCand) count(term string) int {
	if !c.aligned {
		if c.all == nil {
			toks := c.analyzer.Analyze([]byte(c.text))
			c.all = make(map[string]int, len(toks))
			for _, t := range toks {
				c.all[string(t.Term)]++
			}
		}
		return c.all[term]
	}
	n := 0
	lower := c.lower
	// A piece holding term only once its underscores are gone (parse_config
	// for parseconfig) needs looking for only when removing underscores
	// makes more room for term: an occurrence of term in the folded text
	// that overlaps none in the text would add one to the count, and one
	// that overlaps one lies in a piece that holds term as it is.
	folds := c.folded != "" && !strings.Contains(term, "_") &&
		strings.Count(c.folded, term) > strings.Count(lower, term)
	plain := c.isPlainTerm(term)
	for pos := 0; pos < len(lower); {
		at := strings.Index(lower[pos:], term)
		if folds {
			if u := strings.IndexByte(lower[pos:], '_'); u >= 0 && (at < 0 || u < at) {
				at = u
			}
		}
		if at < 0 {
			break
		}
		start, end := pos+at, pos+at
		for start > pos && !isSpace(lower[start-1]) {
			start--
		}
		for end < len(lower) && !isSpace(lower[end]) {
			end++
		}
		piece := lower[start:end]
		switch {
		case plain && trimWord(piece) == term:
			n++
		case strings.Contains(piece, term) ||
			(folds && strings.IndexByte(piece, '_') >= 0 && strings.Contains(strings.ReplaceAll(piece, "_", ""), term)):
			n += c.countIn(start, end, term)
		}
		pos = end
	}
	return n
}

// countIn counts term among the tokens of text[start:end], a piece between
// white space. A piece is analyzed once per search (the same path or
// identifier recurs across a session's events), as long as the search's
// cache (pieceCache) has room.
func (c *evCand) countIn(start, end int, term string) int {
	piece := c.text[start:end]
	terms, ok := c.cache.get(piece)
	if !ok {
		toks := c.analyzer.Analyze([]byte(piece))
		terms = make([]string, len(toks))
		for i, t := range toks {
			terms[i] = string(t.Term)
		}
		c.cache.put(piece, terms)
	}
	n := 0
	for _, t := range terms {
		if t == term {
			n++
		}
	}
	return n
}

// pieceCache holds the analyzed terms of pieces of text for one search,
// and isPlainTerm's answers. A nil cache holds nothing.
type pieceCache struct {
	pieces map[string][]string
	bytes  int
	plain  map[string]bool
}

// maxPieceBytes bounds the bytes of the pieces a search's cache holds.
const maxPieceBytes = 4 << 20

func newPieceCache() *pieceCache {
	return &pieceCache{pieces: map[string][]string{}, plain: map[string]bool{}}
}

func (p *pieceCache) get(piece string) ([]string, bool) {
	if p == nil {
		return nil, false
	}
	t, ok := p.pieces[piece]
	return t, ok
}

func (p *pieceCache) put(piece string, terms []string) {
	if p == nil || p.bytes+len(piece) > maxPieceBytes {
		return
	}
	p.bytes += len(piece)
	p.pieces[piece] = terms
}

// isPlainTerm reports whether the analysis of a piece that is term itself
// (whatever its case), or term between punctuation that trimWord removes,
// gives term once: term is ASCII letters and digits, not a stop word nor
// too long. The piece is then one compound and one word, whose whole
// lowercased form is emitted first and never repeated within it.
func (c *evCand) isPlainTerm(term string) bool {
	if c.cache != nil {
		if p, ok := c.cache.plain[term]; ok {
			return p
		}
	}
	p := isPlainWord([]byte(term)) && len(term) <= maxTermBytes
	if p {
		toks := c.analyzer.Analyze([]byte(term))
		p = len(toks) == 1 && string(toks[0].Term) == term
	}
	if c.cache != nil {
		c.cache.plain[term] = p
	}
	return p
}

// trimWord removes from both ends of a lowercased piece the punctuation
// that never joins a word to its neighbours: brackets, quotes, commas,
// stops and colons (a colon or stop between two word runes is kept, since
// only the ends are trimmed).
func trimWord(s string) string {
	return strings.Trim(s, "()[]{}<>,;:.!?\"`")
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// lowerAligned returns strings.ToLower(s) and whether each of its runes
// kept its UTF-8 length, so that an offset in one is the same in the other.
func lowerAligned(s string) (string, bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	lower := strings.ToLower(s)
	if ascii {
		return lower, true
	}
	if len(lower) != len(s) {
		return lower, false
	}
	for i, r := range s {
		l, _ := utf8.DecodeRuneInString(lower[i:])
		if l != unicode.ToLower(r) {
			return lower, false
		}
	}
	return lower, true
}

func (c *evCand) files() []string {
	if !c.fileListFilled {
		c.fileListFilled = true
		c.fileList = core.FileTerms(c.e.Files)
	}
	return c.fileList
}

// eForm is one form of a query word (as typed, folded, inflected) scored
// with BM25 as bm25Query scores it.
type eForm struct {
	term       string
	idf, boost float64
}

// eForms matches any form of one word and sums the scores of the forms the
// event holds (formsQuery).
type eForms struct{ forms []eForm }

func (n *eForms) eval(c *evCand) (float64, bool) {
	var s float64
	ok := false
	for _, f := range n.forms {
		if tf := c.freq(f.term); tf > 0 {
			ok = true
			s += f.idf * f.boost * bm25TF(float64(tf), c.dl)
		}
	}
	return s, ok
}

// eTerm matches one exact term of a field (scored 1): the text's analyzed
// terms, the session or root id, a touched path or file name, the event id.
type eTerm struct {
	field, value string
}

func (n *eTerm) eval(c *evCand) (float64, bool) {
	if c.probe {
		switch n.field {
		case fieldSession, fieldFiles, fieldEvents:
			return 1, c.ch.mayHoldExact(c.i, n.value)
		case fieldRoot:
			return 1, c.root.String() == n.value
		}
	}
	switch n.field {
	case fieldText:
		return 1, c.freq(n.value) > 0
	case fieldSession:
		return 1, c.e.SessionID.String() == n.value
	case fieldRoot:
		return 1, c.root.String() == n.value
	case fieldFiles:
		return 1, contains(c.files(), n.value)
	case fieldEvents:
		return 1, c.e.ID.String() == n.value
	}
	return 0, false
}

// eFileSuffix matches an event that touched a path ending with suffix (a
// pathKey), at a directory boundary.
type eFileSuffix struct{ suffix string }

func (n *eFileSuffix) eval(c *evCand) (float64, bool) {
	if c.probe { // the path ends with the suffix's last part, in some case
		last := n.suffix[strings.LastIndexByte(n.suffix, '/')+1:]
		return 1, !jsonVerbatim(last) || c.ch.mayHold(c.i, last)
	}
	for _, f := range c.e.Files {
		if p := pathKey(f.Path); p == n.suffix || strings.HasSuffix(p, "/"+n.suffix) {
			return 1, true
		}
	}
	return 0, false
}

// pathKey is a path compared across machines: forward slashes, lowercase,
// without a leading ./ or trailing separators.
func pathKey(p string) string {
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	return strings.TrimRight(strings.TrimPrefix(p, "./"), "/")
}

// eConst gives a fixed score when inner matches (constQuery).
type eConst struct {
	inner eNode
	score float64
}

func (n *eConst) eval(c *evCand) (float64, bool) {
	if _, ok := n.inner.eval(c); ok {
		return n.score, true
	}
	return 0, false
}

// eAnd needs every clause and sums their scores (a bleve conjunction).
type eAnd struct{ kids []eNode }

func (n *eAnd) eval(c *evCand) (float64, bool) {
	var s float64
	for _, k := range n.kids {
		v, ok := k.eval(c)
		if !ok {
			return 0, false
		}
		s += v
	}
	return s, true
}

// eOr needs any clause and sums their scores times the share of clauses
// matched (a bleve disjunction's coordination factor).
type eOr struct{ kids []eNode }

func (n *eOr) eval(c *evCand) (float64, bool) {
	var s float64
	matched := 0
	for _, k := range n.kids {
		if v, ok := k.eval(c); ok {
			s += v
			matched++
		}
	}
	if matched == 0 {
		return 0, false
	}
	return s * float64(matched) / float64(len(n.kids)), true
}

// eventPasses checks an event of a matched group against the filters the
// group fields hold only as a union (type, role, files, time) and the
// text's field: items; the session-level filters are exact on the group.
func eventPasses(m *core.Match, f *core.Filter, scope core.Scope, fields map[string][]string, e *core.Event) bool {
	if scope != core.ScopeAll {
		if _, ok := scope.Weight(e.Type); !ok {
			return false
		}
	}
	if !m.Event(e) || !inTime(m, f, e.Timestamp) {
		return false
	}
	if v := fields[fieldType]; len(v) > 0 && !slices.Contains(v, string(e.Type)) {
		return false
	}
	if v := fields[fieldRole]; len(v) > 0 && !slices.Contains(v, string(e.Role)) {
		return false
	}
	if v := fields[fieldFiles]; len(v) > 0 {
		have := core.FileTerms(e.Files)
		return slices.ContainsFunc(v, func(w string) bool { return slices.Contains(have, w) })
	}
	return true
}
