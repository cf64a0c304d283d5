package index

import (
	"slices"
	"strings"

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

// evCand is an event of a matched group under evaluation. Its analysis is
// done on first need, and only for an event whose lowercased text holds one
// of the clause's terms: every term CodeAnalyzer emits is a lowercased piece
// of the text, or such a piece without its underscores (the folded form of
// an identifier), so an event lacking the substring lacks the term.
type evCand struct {
	e        *core.Event
	root     core.SessionID
	text     string
	analyzer analysis.Analyzer

	lowered        bool
	lower, folded  string
	analyzed       bool
	tf             map[string]int
	dl             float64
	fileList       []string
	fileListFilled bool
}

func newCand(e *core.Event, root core.SessionID, an analysis.Analyzer) *evCand {
	return &evCand{e: e, root: root, text: eventText(e), analyzer: an}
}

// mayHold reports whether the event's text can hold term.
func (c *evCand) mayHold(term string) bool {
	if !c.lowered {
		c.lowered = true
		c.lower = strings.ToLower(c.text)
		if strings.Contains(c.lower, "_") {
			c.folded = strings.ReplaceAll(c.lower, "_", "")
		}
	}
	return strings.Contains(c.lower, term) || (c.folded != "" && strings.Contains(c.folded, term))
}

// freq returns how often the event's analyzed text holds term.
func (c *evCand) freq(term string) int {
	if term == "" || !c.mayHold(term) {
		return 0
	}
	if !c.analyzed {
		c.analyzed = true
		toks := c.analyzer.Analyze([]byte(c.text))
		c.tf = make(map[string]int, len(toks))
		for _, t := range toks {
			c.tf[string(t.Term)]++
		}
		c.dl = float64(len(toks))
	}
	return c.tf[term]
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
