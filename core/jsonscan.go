package core

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// jsonScan reads the JSON that ctx itself writes, without reflection, for
// the objects every read decodes whole (the tree). It is deliberately
// strict: anything it does not handle exactly as encoding/json would (an
// unknown or repeated key, a number with a fraction, a malformed literal)
// makes ok false, and the caller decodes the object with encoding/json
// instead, whose result (or error) is then the answer. So a result from
// jsonScan is always the one encoding/json gives.
type jsonScan struct {
	b      []byte
	i      int
	ok     bool
	intern map[string]string // repeated short strings, kept once
	buf    []byte            // unescaping scratch
	list   []string          // scratch of strings
}

func newJSONScan(b []byte) *jsonScan {
	return &jsonScan{b: b, ok: true, intern: map[string]string{}}
}

// fail marks the input as one for encoding/json and returns false.
func (s *jsonScan) fail() bool {
	s.ok = false
	return false
}

func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space (0 at the end).
func (s *jsonScan) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// eat consumes c if it comes next.
func (s *jsonScan) eat(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

func (s *jsonScan) expect(c byte) bool {
	return s.eat(c) || s.fail()
}

// literal consumes the keyword w (null, true, false) if it comes next.
func (s *jsonScan) literal(w string) bool {
	s.ws()
	if len(s.b)-s.i < len(w) || string(s.b[s.i:s.i+len(w)]) != w {
		return false
	}
	if e := s.i + len(w); e < len(s.b) && isIdentByte(s.b[e]) {
		return s.fail()
	}
	s.i += len(w)
	return true
}

func isIdentByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// object walks the members of an object, calling member with each key
// (valid only during the call) while both succeed. A null object is
// empty; null reports whether the value was null.
func (s *jsonScan) object(member func(key []byte) bool) (null bool) {
	if s.literal("null") {
		return true
	}
	if !s.expect('{') {
		return false
	}
	if s.eat('}') {
		return false
	}
	for s.ok {
		k, ok := s.rawString()
		if !ok || !s.expect(':') || !member(k) {
			s.fail()
			return false
		}
		if s.eat('}') {
			return false
		}
		s.expect(',')
	}
	return false
}

// array walks the elements of an array; null reports a null array.
func (s *jsonScan) array(elem func() bool) (null bool) {
	if s.literal("null") {
		return true
	}
	if !s.expect('[') {
		return false
	}
	if s.eat(']') {
		return false
	}
	for s.ok {
		if !elem() {
			s.fail()
			return false
		}
		if s.eat(']') {
			return false
		}
		s.expect(',')
	}
	return false
}

// rawString returns the unescaped bytes of a string, valid until the next
// call: a slice of the input when it holds no escape.
func (s *jsonScan) rawString() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, s.fail()
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			return s.b[start:j], true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return s.slowString(start)
		}
	}
	return nil, s.fail()
}

// slowString unescapes a string with escapes or non-ASCII bytes. What
// encoding/json would repair (invalid UTF-8, lone surrogates) or reject
// goes to encoding/json for this one string.
func (s *jsonScan) slowString(start int) ([]byte, bool) {
	out := s.buf[:0]
	for j := start; j < len(s.b); {
		c := s.b[j]
		switch {
		case c == '"':
			s.i, s.buf = j+1, out
			return out, true
		case c < 0x20:
			return nil, s.fail()
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(s.b[j:])
			if r == utf8.RuneError && n == 1 {
				return s.stdString(start)
			}
			out = append(out, s.b[j:j+n]...)
			j += n
		case c != '\\':
			out = append(out, c)
			j++
		case j+1 >= len(s.b):
			return nil, s.fail()
		default:
			e := s.b[j+1]
			if r := simpleEscape(e); r != 0 {
				out = append(out, r)
				j += 2
				continue
			}
			if e != 'u' || j+6 > len(s.b) {
				return nil, s.fail()
			}
			v, err := strconv.ParseUint(string(s.b[j+2:j+6]), 16, 32)
			if err != nil || (0xd800 <= v && v < 0xe000) {
				return s.stdString(start)
			}
			out = utf8.AppendRune(out, rune(v))
			j += 6
		}
	}
	return nil, s.fail()
}

func simpleEscape(e byte) byte {
	switch e {
	case '"', '\\', '/':
		return e
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return 0
}

// stdString decodes the string starting at start with encoding/json.
func (s *jsonScan) stdString(start int) ([]byte, bool) {
	end := start
	for end < len(s.b) && s.b[end] != '"' {
		if s.b[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(s.b) {
		return nil, s.fail()
	}
	var v string
	if json.Unmarshal(s.b[start-1:end+1], &v) != nil {
		return nil, s.fail()
	}
	s.i = end + 1
	return []byte(v), true
}

// str reads a string value; null leaves *dst as it is, as encoding/json does.
func (s *jsonScan) str(dst *string) bool {
	if s.literal("null") {
		return true
	}
	b, ok := s.rawString()
	if ok {
		*dst = string(b)
	}
	return ok
}

// shared reads a string that recurs across entries (a provider, a
// workspace, a path), keeping one copy of each.
func (s *jsonScan) shared(dst *string) bool {
	if s.literal("null") {
		return true
	}
	b, ok := s.rawString()
	if !ok {
		return false
	}
	if v, seen := s.intern[string(b)]; seen {
		*dst = v
		return true
	}
	v := string(b)
	s.intern[v] = v
	*dst = v
	return true
}

// text reads a string into a TextUnmarshaler (ids), as encoding/json
// does; a null goes to encoding/json.
func (s *jsonScan) text(u interface{ UnmarshalText([]byte) error }) bool {
	b, ok := s.rawString()
	return ok && (u.UnmarshalText(b) == nil || s.fail())
}

// integer reads an integer of bitSize bits; a fraction, an exponent or an
// overflow goes to encoding/json.
func (s *jsonScan) integer(bitSize int) (int64, bool) {
	s.ws()
	j := s.i
	if j < len(s.b) && s.b[j] == '-' {
		j++
	}
	d := j
	for j < len(s.b) && '0' <= s.b[j] && s.b[j] <= '9' {
		j++
	}
	if j == d || (s.b[d] == '0' && j > d+1) {
		return 0, s.fail()
	}
	if j < len(s.b) && (s.b[j] == '.' || s.b[j] == 'e' || s.b[j] == 'E') {
		return 0, s.fail()
	}
	v, err := strconv.ParseInt(string(s.b[s.i:j]), 10, bitSize)
	if err != nil {
		return 0, s.fail()
	}
	s.i = j
	return v, true
}

// int reads an int; null leaves it as it is.
func (s *jsonScan) int(dst *int) bool {
	if s.literal("null") {
		return true
	}
	v, ok := s.integer(strconv.IntSize)
	if ok {
		*dst = int(v)
	}
	return ok
}

func (s *jsonScan) int64(dst *int64) bool {
	if s.literal("null") {
		return true
	}
	v, ok := s.integer(64)
	if ok {
		*dst = v
	}
	return ok
}

func (s *jsonScan) bool(dst *bool) bool {
	switch {
	case s.literal("true"):
		*dst = true
	case s.literal("false"):
		*dst = false
	case s.literal("null"):
	default:
		return s.fail()
	}
	return s.ok
}

// strings reads an array of shared strings (nil for null, empty for []),
// into a slice of its exact length.
func (s *jsonScan) strings(dst *[]string) bool {
	list := s.list[:0]
	null := s.array(func() bool {
		var v string
		ok := s.shared(&v)
		list = append(list, v)
		return ok
	})
	s.list = list
	switch {
	case !s.ok:
		return false
	case null:
		*dst = nil
	default:
		*dst = append(make([]string, 0, len(list)), list...)
	}
	return true
}

// end reports whether only white space is left.
func (s *jsonScan) end() bool {
	s.ws()
	return s.ok && s.i == len(s.b)
}

// once records key number k of an object, failing on a repeated key
// (encoding/json merges a repeated object into the first).
func (s *jsonScan) once(seen *uint64, k int) bool {
	if *seen&(1<<k) != 0 {
		return s.fail()
	}
	*seen |= 1 << k
	return true
}
