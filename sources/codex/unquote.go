package codex

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// unquote decodes a JSON string literal that the JSON reader has already
// validated, without validating it a second time (call outputs are the
// largest strings of a rollout). Anything unexpected falls back to
// encoding/json.
func unquote(lit []byte) string {
	lit = bytes.TrimSpace(lit)
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' || !utf8.Valid(lit) {
		return slowUnquote(lit)
	}
	b := lit[1 : len(lit)-1]
	i := bytes.IndexByte(b, '\\')
	if i < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i >= 0 {
		var n int
		if out, n = appendEscape(append(out, b[:i]...), b[i:]); n == 0 {
			return slowUnquote(lit)
		}
		b = b[i+n:]
		i = bytes.IndexByte(b, '\\')
	}
	return string(append(out, b...))
}

// simpleEscapes maps the byte after a backslash to what it stands for.
var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// appendEscape decodes the escape at the start of b onto out, returning the
// bytes it used (0 when malformed).
func appendEscape(out, b []byte) ([]byte, int) {
	if len(b) < 2 {
		return out, 0
	}
	if c := simpleEscapes[b[1]]; c != 0 {
		return append(out, c), 2
	}
	r, n := unicodeEscape(b)
	if n == 0 {
		return out, 0
	}
	return utf8.AppendRune(out, r), n
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at the start
// of b, returning the rune and the bytes used (0 when malformed).
func unicodeEscape(b []byte) (rune, int) {
	r := hex4(b)
	if r < 0 {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if lo := hex4(b[6:]); lo >= 0 {
		if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
			return d, 12
		}
	}
	return utf8.RuneError, 6
}

// hex4 reads the four hex digits of \uXXXX at the start of b, or -1.
func hex4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

func slowUnquote(lit []byte) string {
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return string(lit)
	}
	return s
}
