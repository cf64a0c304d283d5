package redact

import "ctx/core"

const (
	maxKey   = 96  // bytes of a key name
	minValue = 8   // bytes of a secret value
	maxValue = 512 // longer values are data, not a credential
)

var (
	keySet = dotted // key names: identifiers, dotted paths, --flags, X-Api-Key
	// valueSet is an unquoted value: printable bytes except blanks, quotes
	// and code punctuation, plus UTF-8.
	valueSet = func() *charset {
		c := userinfoSet(true)
		for _, b := range []byte(",;(){}[]<>&|") {
			c.in[b] = false
		}
		c.in['@'], c.in['/'], c.in['?'], c.in['#'], c.in['^'] = true, true, true, true, true
		return c
	}()
)

// matchAssign matches the value of an assignment whose key names a secret.
// The anchor is a keyword inside the key; the key is the identifier around it.
func matchAssign(s string, at, n int) hit {
	ks, ke := at, at+n
	for ks > 0 && keySet.in[s[ks-1]] {
		if ks--; at-ks > maxKey {
			return hit{next: ke}
		}
	}
	for ke < len(s) && keySet.in[s[ke]] {
		if ke++; ke-ks > maxKey {
			return hit{next: ke}
		}
	}
	key := s[ks:ke]
	vs := operator(s, ke, key[0] == '-')
	if vs < 0 || !secretKey(key) {
		return hit{next: ke}
	}
	lo, hi, quoted := value(s, vs)
	if lo < 0 {
		return hit{next: ke}
	}
	if !plausible(key, s[lo:hi], quoted) {
		return hit{next: hi} // keywords inside a rejected value are not keys
	}
	return hit{lo: lo, hi: hi, next: hi, ok: true, id: assignID(key, s[lo:hi])}
}

// operator parses what follows a key: an optional closing quote, then =, :,
// := or =>, or only blanks after a --flag. It returns where the value
// starts, or -1 when there is no assignment (==, =~, a: without a blank).
func operator(s string, i int, flag bool) int {
	i = skipQuote(s, i)
	b := skipBlanks(s, i)
	if b >= len(s) {
		return -1
	}
	switch c := s[b]; {
	case c == '=':
		if b+1 < len(s) && (s[b+1] == '=' || s[b+1] == '~') {
			return -1
		}
		if b+1 < len(s) && s[b+1] == '>' {
			b++
		}
	case c == ':':
		if b+1 < len(s) && s[b+1] == '=' {
			b++
		} else if b+1 >= len(s) || !(s[b+1] == ' ' || s[b+1] == '\t' || isQuote(s[b+1]) || s[b+1] == '\\') {
			return -1
		}
	case flag && b > i:
		return b
	default:
		return -1
	}
	return skipBlanks(s, b+1)
}

// value returns the bounds of the value at i: a quoted string on one line
// (quotes excluded; a backslash-escaped quote pair for JSON in JSON) or an
// unquoted run. Unquoted values followed by ( or [ are code, not values.
func value(s string, i int) (lo, hi int, quoted bool) {
	if i >= len(s) {
		return -1, -1, false
	}
	if q := skipQuote(s, i); q > i {
		qc := s[q-1]
		e := q
		for e < len(s) && e-q <= maxValue && s[e] != qc && s[e] != '\n' {
			e++
		}
		if e >= len(s) || s[e] != qc {
			return -1, -1, true
		}
		if q-i == 2 && e > q && s[e-1] == '\\' {
			e--
		}
		return q, e, true
	}
	e := valueSet.end(s[:min(len(s), i+maxValue+1)], i)
	for e > i && s[e-1] == '.' {
		e--
	}
	if e < len(s) && (s[e] == '(' || s[e] == '[') {
		return -1, -1, false
	}
	return i, e, false
}

// assignID names the rule of an assigned secret: AWS secret keys and Heroku
// UUID keys by their shape, everything else secret-assignment.
func assignID(key, v string) string {
	switch {
	case len(v) == 40 && b64Letters.end(v, 0) == 40 && containsFold(key, "secret") &&
		(containsFold(key, "aws") || containsFold(key, "access")):
		return "aws-secret-key"
	case containsFold(key, "heroku") && core.IsUUID(v):
		return "heroku-api-key"
	}
	return "secret-assignment"
}

// containsFold reports whether s holds sub, a lower-case ASCII word, in any
// case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if lower[s[i]] != sub[0] {
			continue
		}
		j := 1
		for j < len(sub) && lower[s[i+j]] == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
