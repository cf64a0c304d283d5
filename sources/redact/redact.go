package redact

import (
	"cmp"
	"slices"
	"strings"

	"ctx/core"
)

// Rule describes one built-in rule, for documentation.
type Rule struct {
	ID          string // the id written inside [REDACTED:<id>]
	Description string
	Pattern     string // the shape matched, in regular-expression notation
}

// Redactor replaces secrets in text. It is immutable after New and safe for
// concurrent use.
type Redactor struct {
	rules []rule
	scan  *scanner
}

// markerOpen starts every replacement: [REDACTED:<rule-id>].
const markerOpen = "[REDACTED:"

// maxPasses bounds the scans of one text. Every pass replaces bytes that
// are not inside a marker and no rule matches inside a marker, so passes end;
// in practice the second pass finds nothing.
const maxPasses = 4

// maxRules bounds the rule table (the scanner keeps per-rule state on the
// stack).
const maxRules = 48

// rule is a Rule with its anchors and matchers. A rule without variants is
// only emitted by another rule's matcher (aws-secret-key by
// secret-assignment).
type rule struct {
	Rule
	fold     bool // anchors are case-insensitive
	variants []variant
}

// variant is a set of anchors sharing one matcher.
type variant struct {
	anchors []string
	match   matchFunc
}

// matchFunc examines s where an anchor of length n starts at at. It returns
// the span to replace (lo, hi) when ok, an id when it differs from the
// rule's, and next: anchors of the same rule before next need no look.
type matchFunc func(s string, at, n int) hit

type hit struct {
	lo, hi, next int
	ok           bool
	id           string
}

// New returns a Redactor with the built-in rule set.
func New() *Redactor {
	rs := builtin()
	if len(rs) > maxRules {
		panic("redact: too many rules")
	}
	return &Redactor{rules: rs, scan: newScanner(rs)}
}

// Rules lists the built-in rules in priority order.
func (r *Redactor) Rules() []Rule {
	out := make([]Rule, len(r.rules))
	for i, x := range r.rules {
		out[i] = x.Rule
	}
	return out
}

// String returns s with every secret replaced by [REDACTED:<rule-id>] and
// the number of replacements. Text without secrets is returned as is,
// without allocating. Text with secrets is scanned again until nothing more
// matches (a value may become a credential's shape only once a token inside
// it is replaced), so String(String(s)) == String(s).
func (r *Redactor) String(s string) (string, int) {
	total := 0
	for range maxPasses {
		var buf [8]span
		spans := r.scan.find(s, buf[:0])
		if len(spans) == 0 {
			break
		}
		var n int
		s, n = apply(s, spans)
		total += n
	}
	return s, total
}

// Event redacts the text-bearing fields of e in place (Text, Command and the
// old text, new text and patch of each file touch; paths, tool names and ids
// are kept) and returns the number of replacements.
func (r *Redactor) Event(e *core.Event) int {
	n := r.field(&e.Text) + r.field(&e.Command)
	for i := range e.Files {
		f := &e.Files[i]
		n += r.field(&f.OldText) + r.field(&f.NewText) + r.field(&f.Patch)
	}
	return n
}

func (r *Redactor) field(p *string) int {
	s, n := r.String(*p)
	if n > 0 {
		*p = s
	}
	return n
}

// apply replaces the spans, merging overlapping ones so that no part of any
// match survives; a merged span takes the id of the one that starts first
// (the longest, then the higher priority, on ties).
func apply(s string, spans []span) (string, int) {
	slices.SortFunc(spans, func(a, b span) int {
		if c := cmp.Compare(a.lo, b.lo); c != 0 {
			return c
		}
		if c := cmp.Compare(b.hi, a.hi); c != 0 {
			return c
		}
		return cmp.Compare(a.prio, b.prio)
	})
	var b strings.Builder
	b.Grow(len(s) + 24*len(spans))
	last, n := 0, 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].lo < cur.hi; i++ {
			cur.hi = max(cur.hi, spans[i].hi)
		}
		b.WriteString(s[last:cur.lo])
		b.WriteString(markerOpen)
		b.WriteString(cur.id)
		b.WriteByte(']')
		last = cur.hi
		n++
	}
	b.WriteString(s[last:])
	return b.String(), n
}
