package index

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search/query"

	"ctx/core"
)

// Boosts of the clauses of a text query.
const (
	// exactBoost weights the extra clause added for a query token that is an
	// exact identifier (ctx id, commit hash, path or file name, error code),
	// so that documents containing it rank first.
	exactBoost = 10.0
	// foldBoost weights the folded form of a snake_case query token
	// (parse_config → parseconfig), which also matches parseConfig.
	foldBoost = 0.5
	// maxQueryTerms bounds the distinct analyzed terms taken from a query.
	maxQueryTerms = 32
)

var (
	hexRE       = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)
	errorCodeRE = regexp.MustCompile(`^(?:[A-Z]{1,4}[0-9]{2,5}|E[A-Z]{3,15})$`)
	fileNameRE  = regexp.MustCompile(`^[\w.@+-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}$`)
)

// textQueries returns the queries for the text of a search, narrowest
// first. Every term of the text analyzed with QueryAnalyzer is a clause
// (each snake_case term also matches its folded form), and exact identifiers
// get a boosted extra clause that a document may match instead. The broad
// query needs any one clause (more matches score higher). When the text has
// two or more terms, a narrow query comes first that needs every term (or an
// exact identifier): Search uses it when it fills the candidate window, which
// spares scoring the long posting lists of common words for documents that
// rank below those matching every word anyway.
//
// Quotes are ignored: without term vectors bleve cannot match phrases, so
// "a b" searches a and b. It returns nil when the text has no terms.
func (r *Reader) textQueries(text string) []query.Query {
	var terms []query.Query
	seen := map[string]bool{}
	for _, tok := range r.analyzer.Analyze([]byte(text)) {
		t := string(tok.Term)
		if seen[t] || len(seen) >= maxQueryTerms {
			continue
		}
		seen[t] = true
		var c query.Query = term(fieldText, t, 1)
		if f := foldTerm(t); f != "" && !seen[f] {
			c = query.NewDisjunctionQuery([]query.Query{c, term(fieldText, f, foldBoost)})
		}
		terms = append(terms, c)
	}
	if len(terms) == 0 {
		return nil
	}
	var exact []query.Query
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(strings.Trim(w, "\"'`()[]{}<>,;!?"), ".:")
		exact = append(exact, exactClauses(w)...)
	}
	broad := query.NewDisjunctionQuery(append(slices.Clip(terms), exact...))
	if len(terms) < 2 {
		return []query.Query{broad}
	}
	narrow := query.NewDisjunctionQuery(append([]query.Query{query.NewConjunctionQuery(terms)}, exact...))
	return []query.Query{narrow, broad}
}

// exactClauses returns the boosted clauses for a query word that looks like
// an exact identifier, or nil.
func exactClauses(w string) []query.Query {
	switch {
	case w == "":
		return nil
	case strings.HasPrefix(w, "ses_"):
		if _, err := core.ParseSessionID(w); err == nil {
			return []query.Query{term(fieldSession, w, exactBoost), term(fieldRoot, w, exactBoost)}
		}
	case strings.HasPrefix(w, "evt_"):
		if _, err := core.ParseEventID(w); err == nil {
			q := query.NewDocIDQuery([]string{w})
			q.SetBoost(exactBoost)
			return []query.Query{q}
		}
	case hexRE.MatchString(w) && strings.ContainsAny(w, "0123456789"),
		errorCodeRE.MatchString(w):
		return []query.Query{term(fieldText, strings.ToLower(w), exactBoost)}
	case strings.ContainsAny(w, `/\`) || fileNameRE.MatchString(w):
		out := []query.Query{term(fieldFiles, w, exactBoost)}
		if c := strings.Trim(w, `./-:\`); c != "" && !strings.Contains(c, `\`) {
			out = append(out, term(fieldText, strings.ToLower(c), exactBoost))
		}
		return out
	}
	return nil
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
