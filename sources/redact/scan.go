package redact

// charset is a set of bytes with its notation for the rules' documentation.
type charset struct {
	name string
	in   [256]bool
}

// newCharset builds a set from a bracket-expression body such as
// "A-Za-z0-9_-" (a trailing '-' is literal).
func newCharset(spec string) *charset {
	c := &charset{name: "[" + spec + "]"}
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for b := int(spec[i]); b <= int(spec[i+2]); b++ {
				c.in[b] = true
			}
			i += 2
			continue
		}
		c.in[spec[i]] = true
	}
	return c
}

// end returns the end of the run of set bytes starting at i.
func (c *charset) end(s string, i int) int {
	for i < len(s) && c.in[s[i]] {
		i++
	}
	return i
}

var (
	alnum    = newCharset("A-Za-z0-9")
	upperNum = newCharset("A-Z0-9")
	lowerHex = newCharset("0-9a-f")
	anyHex   = newCharset("0-9a-fA-F")
	b64url   = newCharset("A-Za-z0-9_-")
	b64std   = newCharset("A-Za-z0-9+/=")
	word     = newCharset("A-Za-z0-9_")
	slackHk  = newCharset("A-Za-z0-9/_")
	dashNum  = newCharset("A-Za-z0-9-")
	dotted   = newCharset("A-Za-z0-9_.-")
	token68  = newCharset("A-Za-z0-9._~+/=-")
)

// lower folds ASCII upper case; other bytes are unchanged.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// anchor is one literal that triggers a rule variant. Folded anchors are
// stored in lower case and compared case-insensitively.
type anchor struct {
	lit     string
	fold    bool
	rule    int
	variant int
}

// at reports whether the anchor occurs in s at i.
func (a *anchor) at(s string, i int) bool {
	if len(s)-i < len(a.lit) {
		return false
	}
	if !a.fold {
		return s[i:i+len(a.lit)] == a.lit
	}
	for j := 0; j < len(a.lit); j++ {
		if lower[s[i+j]] != a.lit[j] {
			return false
		}
	}
	return true
}

// scanner is the prefilter: one pass over the text testing each byte pair
// against a bitset of the first two bytes of every anchor (every case
// variant of them for case-insensitive anchors); only at such positions are
// the anchors compared and a rule's matcher run.
type scanner struct {
	rules  []rule
	bits   [1 << 10]uint64
	bucket [1 << 16]uint8 // bigram → index+1 into lists
	lists  [][]anchor
}

func bigram(a, b byte) uint32 { return uint32(a)<<8 | uint32(b) }

// variants returns c and, for a letter, its other case.
func variants(c byte, fold bool) []byte {
	if fold && lower[c] >= 'a' && lower[c] <= 'z' {
		return []byte{lower[c], lower[c] - 'a' + 'A'}
	}
	return []byte{c}
}

func newScanner(rules []rule) *scanner {
	sc := &scanner{rules: rules}
	for ri, r := range rules {
		for vi, v := range r.variants {
			for _, lit := range v.anchors {
				a := anchor{lit: lit, fold: r.fold, rule: ri, variant: vi}
				if r.fold {
					a.lit = foldString(lit)
				}
				sc.add(a)
			}
		}
	}
	return sc
}

func (sc *scanner) add(a anchor) {
	if len(a.lit) < 2 {
		panic("redact: anchor shorter than two bytes: " + a.lit)
	}
	for _, b0 := range variants(a.lit[0], a.fold) {
		for _, b1 := range variants(a.lit[1], a.fold) {
			k := bigram(b0, b1)
			if sc.bucket[k] == 0 {
				if len(sc.lists) >= 255 {
					panic("redact: too many anchor bigrams")
				}
				sc.lists = append(sc.lists, nil)
				sc.bucket[k] = uint8(len(sc.lists))
				sc.bits[k>>6] |= 1 << (k & 63)
			}
			sc.lists[sc.bucket[k]-1] = append(sc.lists[sc.bucket[k]-1], a)
		}
	}
}

func foldString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower[c]
	}
	return string(b)
}

// span is a byte range to replace by the marker of id; prio is the index of
// the rule that found it (lower wins ties).
type span struct {
	lo, hi int
	prio   int
	id     string
}

// find appends the spans of every rule match in s to spans. The loop keeps
// the bigram in a register: one bit test a byte.
func (sc *scanner) find(s string, spans []span) []span {
	if len(s) < 2 {
		return spans
	}
	var next [maxRules]int // per rule: anchors before this were already covered
	k := uint32(s[0])
	for i := 1; i < len(s); i++ {
		k = (k<<8 | uint32(s[i])) & 0xffff
		if sc.bits[k>>6]&(1<<(k&63)) != 0 {
			spans = sc.try(s, i-1, sc.lists[sc.bucket[k]-1], &next, spans)
		}
	}
	return spans
}

// try runs the rules of the anchors of one bigram found at i.
func (sc *scanner) try(s string, i int, list []anchor, next *[maxRules]int, spans []span) []span {
	for j := range list {
		a := &list[j]
		if i < next[a.rule] || !a.at(s, i) {
			continue
		}
		r := &sc.rules[a.rule]
		h := r.variants[a.variant].match(s, i, len(a.lit))
		next[a.rule] = max(h.next, i+1)
		if h.ok && h.hi > h.lo {
			id := h.id
			if id == "" {
				id = r.ID
			}
			spans = append(spans, span{lo: h.lo, hi: h.hi, prio: a.rule, id: id})
		}
	}
	return spans
}
