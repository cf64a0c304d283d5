package redact

import (
	"strconv"
	"strings"
)

// seg is one element of a token format after its anchor: a literal, or a
// maximal run of a charset whose length must lie in [min, max] (max 0: no
// upper bound).
type seg struct {
	lit      string
	set      *charset
	min, max int
}

func lit(s string) seg                 { return seg{lit: s} }
func run(c *charset, lo, hi int) seg   { return seg{set: c, min: lo, max: hi} }
func exactly(c *charset, n int) seg    { return seg{set: c, min: n, max: n} }
func atLeast(c *charset, n int) seg    { return seg{set: c, min: n} }
func anyOf(anchors ...string) []string { return anchors }
func hasDigit(s string) bool           { return strings.ContainsAny(s, "0123456789") }
func hasUpperLower(s string) bool      { return hasClass(s, 'A', 'Z') && hasClass(s, 'a', 'z') }
func notPrefixed(p string) func(string) bool {
	return func(s string) bool { return !strings.HasPrefix(s, p) }
}

func hasClass(s string, lo, hi byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= lo && s[i] <= hi {
			return true
		}
	}
	return false
}

// tokenSpec is a fixed-prefix token format: the anchor, then segs. The byte
// before the anchor must not be alphanumeric (unless keep is set).
type tokenSpec struct {
	segs    []seg
	keep    bool              // the anchor is context (a URL or a key=); only what follows is replaced
	bounded bool              // the byte after the token must not be alphanumeric
	check   func(string) bool // extra test of the whole token, monotone under shortening
}

func (t tokenSpec) match(s string, at, n int) hit {
	if !t.keep && at > 0 && alnum.in[s[at-1]] {
		return hit{next: at + 1}
	}
	i := at + n
	for _, g := range t.segs {
		if g.set == nil {
			if !strings.HasPrefix(s[i:], g.lit) {
				return hit{next: i}
			}
			i += len(g.lit)
			continue
		}
		j := g.set.end(s, i)
		if j-i < g.min || (g.max > 0 && j-i > g.max) {
			return hit{next: j}
		}
		i = j
	}
	if t.bounded && i < len(s) && alnum.in[s[i]] {
		return hit{next: i}
	}
	if t.check != nil && !t.check(s[at:i]) {
		return hit{next: i}
	}
	lo := at
	if t.keep {
		lo = at + n
	}
	return hit{lo: lo, hi: i, next: i, ok: true}
}

// pattern renders the spec in regular-expression notation.
func (t tokenSpec) pattern(anchors []string) string {
	var b strings.Builder
	if !t.keep {
		b.WriteString(`\b`)
	}
	quoted := make([]string, len(anchors))
	for i, a := range anchors {
		quoted[i] = strings.ReplaceAll(a, ".", `\.`)
	}
	if len(quoted) == 1 {
		b.WriteString(quoted[0])
	} else {
		b.WriteString("(" + strings.Join(quoted, "|") + ")")
	}
	for _, g := range t.segs {
		if g.set == nil {
			b.WriteString(strings.ReplaceAll(g.lit, ".", `\.`))
			continue
		}
		b.WriteString(g.set.name)
		switch {
		case g.min == g.max:
			b.WriteString("{" + strconv.Itoa(g.min) + "}")
		case g.max == 0:
			b.WriteString("{" + strconv.Itoa(g.min) + ",}")
		default:
			b.WriteString("{" + strconv.Itoa(g.min) + "," + strconv.Itoa(g.max) + "}")
		}
	}
	if t.bounded {
		b.WriteString(`\b`)
	}
	return b.String()
}

// tokenRule builds a case-sensitive rule from one or more (anchors, spec)
// variants.
func tokenRule(id, desc string, vs ...tokenVariant) rule {
	r := rule{Rule: Rule{ID: id, Description: desc}}
	var pats []string
	for _, v := range vs {
		r.variants = append(r.variants, variant{anchors: v.anchors, match: v.spec.match})
		pats = append(pats, v.spec.pattern(v.anchors))
	}
	r.Pattern = strings.Join(pats, " | ")
	return r
}

type tokenVariant struct {
	anchors []string
	spec    tokenSpec
}

func tv(anchors []string, segs ...seg) tokenVariant {
	return tokenVariant{anchors: anchors, spec: tokenSpec{segs: segs}}
}

func (v tokenVariant) bounded() tokenVariant { v.spec.bounded = true; return v }
func (v tokenVariant) keep() tokenVariant    { v.spec.keep = true; return v }
func (v tokenVariant) check(f func(string) bool) tokenVariant {
	v.spec.check = f
	return v
}
