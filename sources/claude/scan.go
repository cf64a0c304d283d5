package claude

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A small non-validating JSON walker for the hot path. Every line reaching
// the parser has already been checked by json.Valid (sources/jsonl), so the
// walker only finds value boundaries and unquotes strings; this avoids the
// repeated validation passes that nested encoding/json decoding costs. On
// malformed input it reports failure instead of panicking.

func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the offset just past the value starting at d[i], or -1.
func valueEnd(d []byte, i int) int {
	if i >= len(d) {
		return -1
	}
	switch d[i] {
	case '"':
		return stringEnd(d, i)
	case '{', '[':
		return containerEnd(d, i)
	}
	j := i
	for j < len(d) && !isDelim(d[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ':', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// stringEnd returns the offset just past the string starting at d[i].
func stringEnd(d []byte, i int) int {
	for j := i + 1; j < len(d); {
		k := bytes.IndexByte(d[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for b := q - 1; b > i && d[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

// containerEnd returns the offset just past the object or array at d[i].
func containerEnd(d []byte, i int) int {
	depth := 0
	for j := i; j < len(d); j++ {
		switch d[j] {
		case '"':
			e := stringEnd(d, j)
			if e < 0 {
				return -1
			}
			j = e - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// eachField calls fn with the raw key (without quotes) and the value of each
// member of the object d. It reports false when d is not a whole object.
func eachField(d []byte, fn func(key, val []byte)) bool {
	i := skipSpace(d, 0)
	if i >= len(d) || d[i] != '{' {
		return false
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return true
	}
	for i < len(d) && d[i] == '"' {
		ke := stringEnd(d, i)
		if ke < 0 {
			return false
		}
		key := d[i+1 : ke-1]
		i = skipSpace(d, ke)
		if i >= len(d) || d[i] != ':' {
			return false
		}
		vs := skipSpace(d, i+1)
		ve := valueEnd(d, vs)
		if ve < 0 {
			return false
		}
		fn(key, d[vs:ve])
		i = skipSpace(d, ve)
		if i < len(d) && d[i] == '}' {
			return true
		}
		if i >= len(d) || d[i] != ',' {
			return false
		}
		i = skipSpace(d, i+1)
	}
	return false
}

// eachElem calls fn with each element of the array d; false when d is not
// a whole array.
func eachElem(d []byte, fn func(val []byte)) bool {
	i := skipSpace(d, 0)
	if i >= len(d) || d[i] != '[' {
		return false
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == ']' {
		return true
	}
	for i < len(d) {
		ve := valueEnd(d, i)
		if ve < 0 {
			return false
		}
		fn(d[i:ve])
		i = skipSpace(d, ve)
		if i < len(d) && d[i] == ']' {
			return true
		}
		if i >= len(d) || d[i] != ',' {
			return false
		}
		i = skipSpace(d, i+1)
	}
	return false
}

// str returns the string value v, or "" when v is not a string.
func str(v []byte) string {
	s, _ := unquote(v)
	return s
}

// boolean reports whether v is the literal true.
func boolean(v []byte) bool { return string(v) == "true" }

// integer returns the number v as an int64, and false when v is no number.
func integer(v []byte) (int64, bool) {
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || f != f || f > 1<<62 || f < -(1<<62) {
		return 0, false
	}
	return int64(f), true
}

// unquote decodes the JSON string v (with its quotes). Lone surrogates
// become U+FFFD, as in encoding/json. The string is built in place (a
// strings.Builder of the escaped length), so that a long text costs one
// copy of itself, not two.
func unquote(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	s := v[1 : len(v)-1]
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s), true
	}
	var b strings.Builder
	b.Grow(len(s))
	var esc [utf8.UTFMax]byte
	for i := 0; i < len(s); {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 {
			b.Write(s[i:])
			break
		}
		b.Write(s[i : i+j])
		i += j
		e, n := appendEscape(esc[:0], s[i:])
		if n == 0 {
			return "", false
		}
		b.Write(e)
		i += n
	}
	return b.String(), true
}

// appendEscape decodes the escape sequence at the start of s onto buf and
// returns the bytes consumed (0 when malformed).
func appendEscape(buf, s []byte) ([]byte, int) {
	if len(s) < 2 {
		return buf, 0
	}
	switch c := s[1]; c {
	case '"', '\\', '/':
		return append(buf, c), 2
	case 'b':
		return append(buf, '\b'), 2
	case 'f':
		return append(buf, '\f'), 2
	case 'n':
		return append(buf, '\n'), 2
	case 'r':
		return append(buf, '\r'), 2
	case 't':
		return append(buf, '\t'), 2
	case 'u':
		r, n := unicodeEscape(s)
		if n == 0 {
			return buf, 0
		}
		return utf8.AppendRune(buf, r), n
	}
	return buf, 0
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at the start
// of s, returning the rune and the bytes consumed (0 when malformed).
func unicodeEscape(s []byte) (rune, int) {
	r := hex4(s, 2)
	if r < 0 {
		return 0, 0
	}
	if r < 0xD800 || r > 0xDFFF {
		return r, 6
	}
	if r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if lo := hex4(s, 8); lo >= 0xDC00 && lo <= 0xDFFF {
			return (r-0xD800)<<10 | (lo - 0xDC00) + 0x10000, 12
		}
	}
	return utf8.RuneError, 6
}

// hex4 parses four hex digits at s[i:], or returns -1.
func hex4(s []byte, i int) rune {
	if len(s) < i+4 {
		return -1
	}
	var r rune
	for _, c := range s[i : i+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(d)
	}
	return r
}
