package index

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search/query"

	"ctx/core"
)

// Boosts of the clauses of a text query.
const (
	// exactBoost scales the constant score of the clause added for a query
	// word that is an exact identifier (session id, commit hash, path or
	// file name, error code): that many times the mean idf of the query's
	// terms, about as much as matching two rare words.
	exactBoost = 2.0
	// idScore is the score of the event an exact evt_ id names: first.
	idScore = 1e6
	// foldBoost weights the folded form of a snake_case query token
	// (parse_config → parseconfig), which also matches parseConfig.
	foldBoost = 0.5
	// inflectBoost weights another inflection of a query word (failed for
	// fail): below the word as typed, but enough to count.
	inflectBoost = 0.7
	// maxQueryTerms bounds the distinct analyzed terms taken from a query.
	maxQueryTerms = 32
)

var (
	hexRE       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`) })
	errorCodeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[A-Z]{1,4}[0-9]{2,5}|E[A-Z]{3,15})$`) })
	fileNameRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w.@+-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}$`) })
)

// textPlan is the text of a search compiled for the index: each query
// twice, as bleve queries over the groups and as eNode trees over one event.
type textPlan struct {
	// narrow needs every word (or an exact identifier); broad any word
	// (nil when the text has a single required clause).
	narrow, broad   query.Query
	enarrow, ebroad eNode
	// not holds the excluded items' clauses, checked on each event (a group
	// holding an excluded word may hold events without it).
	not []eNode
	// phrases are the word runs a hit's text must hold (quoted phrases).
	phrases [][]string
	// whole is every free word in order: a hit holding them next to each
	// other matches the whole query (nil for a single word).
	whole []string
	// fields are the field: filters of the text.
	fields map[string][]string
}

// clause is one clause compiled both ways.
type clause struct {
	q query.Query
	e eNode
}

func conj(cs []clause) clause {
	if len(cs) == 1 {
		return cs[0]
	}
	qs, kids := split(cs)
	return clause{q: query.NewConjunctionQuery(qs), e: &eAnd{kids: kids}}
}

func disj(cs []clause) clause {
	qs, kids := split(cs)
	return clause{q: query.NewDisjunctionQuery(qs), e: &eOr{kids: kids}}
}

// split returns the index queries and the evaluation nodes of clauses.
func split(cs []clause) ([]query.Query, []eNode) {
	qs := make([]query.Query, len(cs))
	var kids []eNode
	for i, c := range cs {
		qs[i] = c.q
		kids = append(kids, c.e)
	}
	return qs, kids
}

// compile turns the text of a search into index queries (see parse.go
// for the syntax). Every analyzed term of a word is a clause scored by
// BM25 over the generation's global statistics (each snake_case term also
// matches its folded form); a word's terms, a phrase's terms and the OR
// groups are ANDed in the narrow query and ORed in the broad one (where
// more matching clauses score higher). Exact identifiers add a constant
// score clause that a document may match instead. It returns
// ErrNoSearchableTerms when nothing in the text can be searched: only
// common words, punctuation or excluded words.
func (r *Reader) compile(text string, df func(term string) uint64) (*textPlan, error) {
	p := parseQuery(text)
	c := clauseBuilder{r: r, df: df, seen: map[string]bool{}}
	plan := &textPlan{fields: p.fields}
	var required []clause
	for _, g := range p.groups {
		var alts []clause
		for _, it := range g {
			if q, ok := c.item(it); ok {
				alts = append(alts, q)
			}
			if it.phrase && len(g) == 1 {
				if w := words(it.text); len(w) > 1 {
					plan.phrases = append(plan.phrases, w)
				}
			}
		}
		switch len(alts) {
		case 0:
		case 1:
			required = append(required, alts[0])
		default:
			required = append(required, disj(alts))
		}
	}
	c.excluding = true
	for _, it := range p.not {
		if q, ok := c.item(it); ok {
			plan.not = append(plan.not, q.e)
		}
	}
	var exact []clause
	for _, g := range p.groups {
		for _, it := range g {
			if !it.phrase {
				w := strings.TrimRight(strings.Trim(it.text, "\"'`()[]{}<>,;!?"), ".:")
				exact = append(exact, c.exact(w)...)
			}
		}
	}
	if len(required) == 0 && len(exact) == 0 {
		if len(p.fields) > 0 && len(p.groups) == 0 {
			return plan, nil // only field: filters
		}
		return nil, ErrNoSearchableTerms
	}
	if len(p.plain) > 1 {
		plan.whole = p.plain
	}
	var narrow clause
	switch {
	case len(required) == 0:
		narrow = disj(exact)
	case len(required) == 1 && len(exact) == 0:
		narrow = required[0]
	default:
		narrow = disj(append([]clause{conj(required)}, exact...))
		if len(c.terms) > 1 {
			broad := disj(append(slices.Clip(c.terms), exact...))
			plan.broad, plan.ebroad = broad.q, broad.e
		}
	}
	plan.narrow, plan.enarrow = narrow.q, narrow.e
	return plan, nil
}

// clauseBuilder makes the clauses of one query's words, each term once.
type clauseBuilder struct {
	r    *Reader
	df   func(term string) uint64
	seen map[string]bool
	idfs float64 // the sum of the idf of every term, the scale of exact clauses
	// terms holds every required term's clause: the broad query needs any.
	terms []clause
	// excluding is set while the excluded items are built.
	excluding bool
}

// item returns the clause of a word or phrase: its analyzed terms ANDed,
// or false when it has none (only common words or punctuation).
func (c *clauseBuilder) item(it item) (clause, bool) {
	var terms, parts []clause
	for _, tok := range c.r.analyzer.Analyze([]byte(it.text)) {
		t := string(tok.Term)
		if len(c.seen) >= maxQueryTerms && !c.seen[t] {
			break
		}
		c.seen[t] = true
		q := c.term(t, it.text[tok.Start:tok.End])
		terms = append(terms, q)
		if !strings.Contains(t, "/") {
			parts = append(parts, q)
		}
	}
	if len(terms) == 0 {
		return clause{}, false
	}
	if len(parts) == 0 || len(parts) == len(terms) || c.excluding {
		return conj(terms), true
	}
	// A path's joined forms (a/b/c.go, b/c.go) are preferred, not needed:
	// the same path written with backslashes (a Windows tool's) or in
	// another order of arguments holds its parts only, and scores half.
	return disj([]clause{conj(terms), conj(parts)}), true
}

// term is one analyzed term of the text field, as typed (raw), or'ed with
// its folded form and inflections.
func (c *clauseBuilder) term(t, raw string) clause {
	if c.excluding {
		return exactTerm(fieldText, t)
	}
	idf := c.r.stats.idf(c.df(t))
	c.idfs += idf
	fq := &formsQuery{forms: []*bm25Query{{field: fieldText, term: t, idf: idf, boost: 1}}}
	if f := foldTerm(t); f != "" {
		fq.forms = append(fq.forms, &bm25Query{field: fieldText, term: f, idf: c.r.stats.idf(c.df(f)), boost: foldBoost})
	}
	for _, f := range inflections(t) {
		if df := c.df(f); df > 0 {
			fq.forms = append(fq.forms, &bm25Query{field: fieldText, term: f, idf: c.r.stats.idf(df), boost: inflectBoost})
		}
	}
	// A camelCase word (parseConfig) is also the folded form of its words
	// joined by underscores (parse_config), which the index holds joined
	// as typed, not folded: that term stands for the folded form.
	if snake := snakeForm(t, raw); snake != "" {
		fq.alts = append(fq.alts, &constQuery{inner: term(fieldText, snake, 1), score: idf * bm25TF(1, refLength)})
	}
	ef := &eForms{}
	for _, f := range fq.forms {
		ef.forms = append(ef.forms, eForm{term: f.term, idf: f.idf, boost: f.boost})
	}
	out := clause{q: fq.forms[0], e: ef}
	if len(fq.forms)+len(fq.alts) > 1 {
		out.q = fq
	}
	c.terms = append(c.terms, out)
	return out
}

// exact returns the clauses for a query word that looks like an exact
// identifier, or nil: an event id scores idScore; a session id, a touched
// file, or a hash or error code in the text scores exactBoost times the
// mean idf of the query's terms (at least 1).
func (c *clauseBuilder) exact(w string) []clause {
	k := 1.0
	if len(c.terms) > 0 {
		k = max(exactBoost*c.idfs/float64(len(c.terms)), 1)
	}
	cs := func(q clause, score float64) clause {
		return clause{q: &constQuery{inner: q.q, score: score}, e: &eConst{inner: q.e, score: score}}
	}
	switch {
	case w == "":
		return nil
	case strings.HasPrefix(w, "ses_"):
		if _, err := core.ParseSessionID(w); err == nil {
			return []clause{cs(exactTerm(fieldSession, w), k), cs(exactTerm(fieldRoot, w), k)}
		}
	case strings.HasPrefix(w, "evt_"):
		if id, err := core.ParseEventID(w); err == nil {
			ev := clause{q: term(fieldEvents, eventKey(id), 1), e: &eTerm{field: fieldEvents, value: id.String()}}
			return []clause{cs(ev, idScore)}
		}
	case hexRE().MatchString(w) && strings.ContainsAny(w, "0123456789"),
		errorCodeRE().MatchString(w):
		return []clause{cs(c.textTerm(strings.ToLower(w)), k)}
	case strings.ContainsAny(w, `/\`) || fileNameRE().MatchString(w):
		// The files field holds each touched path and its base name: a
		// relative path or a path from another machine meets its file by name.
		f := exactTerm(fieldFiles, w)
		if b := core.FileName(w); b != "" && b != w {
			f = disj([]clause{f, exactTerm(fieldFiles, b)})
		}
		out := []clause{cs(f, k)}
		// A path with directories that ends a touched path (whatever its
		// separators, case or root) adds half: the file, not one of the
		// same name elsewhere.
		if b := core.FileName(w); b != "" && b != w {
			out = append(out, cs(clause{q: term(fieldFiles, b, 1), e: &eFileSuffix{suffix: pathKey(w)}}, k/2))
		}
		// A mention in the text counts half as much as touching the file.
		if t := strings.Trim(w, `./-:\`); t != "" && !strings.Contains(t, `\`) {
			out = append(out, cs(c.textTerm(strings.ToLower(t)), k/2))
		}
		return out
	}
	return nil
}

// exactTerm matches one keyword of a field both ways.
func exactTerm(field, value string) clause {
	return clause{q: term(field, value, 1), e: &eTerm{field: field, value: value}}
}

// textTerm matches one analyzed term of the text both ways. A derived form
// (a compound or path suffix such as store/index.go, see groupTerms) is
// matched in the index by the rarest two of the terms it is made of (the
// others add little but the work of intersecting them), and checked on
// each event of the groups holding them.
func (c *clauseBuilder) textTerm(t string) clause {
	terms, _ := groupTerms(nil, t, nil)
	parts := strings.Split(string(terms), string(termSep))[1:]
	if len(parts) == 0 || len(parts) == 1 && parts[0] == t {
		return exactTerm(fieldText, t)
	}
	slices.SortStableFunc(parts, func(a, b string) int { return cmp.Compare(c.df(a), c.df(b)) })
	return clause{q: allTerms(parts[:min(2, len(parts))]), e: &eTerm{field: fieldText, value: t}}
}

// allTerms matches the documents whose text holds every one of terms.
func allTerms(terms []string) query.Query {
	qs := make([]query.Query, len(terms))
	for i, t := range terms {
		qs[i] = term(fieldText, t, 1)
	}
	return query.NewConjunctionQuery(qs)
}

// snakeForm returns the snake_case form of a query term t typed as raw
// when t is the folded form of an identifier made of its camelCase words
// (parseConfig: parse_config), or "".
func snakeForm(t, raw string) string {
	if strings.Contains(t, "_") || raw == t {
		return ""
	}
	in := []byte(raw)
	pieces := camelSpans(nil, in, span{0, len(in)})
	if len(pieces) < 2 || hasIDPiece(in, pieces) {
		return ""
	}
	words := make([]string, len(pieces))
	for i, p := range pieces {
		words[i] = strings.ToLower(raw[p.start:p.end])
	}
	if strings.Join(words, "") != t {
		return ""
	}
	return strings.Join(words, "_")
}

// foldTerm returns the folded form of an analyzed snake_case term as the
// code analyzer indexes it (max_retries → maxretries), or "".
func foldTerm(t string) string {
	if !strings.Contains(t, "_") || !utf8.ValidString(t) {
		return ""
	}
	var pieces []string
	for _, p := range strings.Split(t, "_") {
		if p == "" {
			continue
		}
		for _, c := range p {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
				return ""
			}
		}
		if isHex([]byte(p)) && (len(p) >= 7 || isDigits([]byte(p))) {
			return ""
		}
		pieces = append(pieces, p)
	}
	if len(pieces) < 2 {
		return ""
	}
	return strings.Join(pieces, "")
}

func term(field, t string, boost float64) *query.TermQuery {
	q := query.NewTermQuery(t)
	q.SetField(field)
	if boost != 1 {
		q.SetBoost(boost)
	}
	return q
}
