package corpus

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// enc builds one JSON value into a byte slice with keys in the order they are
// written, the way the agents' own serializers order them. Callers reuse an
// enc across lines by resetting b.
type enc struct {
	b    []byte
	need bool // a comma is needed before the next value or key
}

func (e *enc) reset() { e.b, e.need = e.b[:0], false }

func (e *enc) sep() {
	if e.need {
		e.b = append(e.b, ',')
	}
}

// key writes "k": and leaves the encoder ready for the value.
func (e *enc) key(k string) {
	e.sep()
	e.b = appendQuoted(e.b, k)
	e.b = append(e.b, ':')
	e.need = false
}

func (e *enc) open()     { e.sep(); e.b = append(e.b, '{'); e.need = false }
func (e *enc) close()    { e.b = append(e.b, '}'); e.need = true }
func (e *enc) openArr()  { e.sep(); e.b = append(e.b, '['); e.need = false }
func (e *enc) closeArr() { e.b = append(e.b, ']'); e.need = true }

// obj starts an object value under key k.
func (e *enc) obj(k string) { e.key(k); e.open() }

// arr starts an array value under key k.
func (e *enc) arr(k string) { e.key(k); e.openArr() }

// vstr writes a string value (in an array or after key).
func (e *enc) vstr(v string) {
	e.sep()
	e.b = appendQuoted(e.b, v)
	e.need = true
}

// vbytes writes text held in a byte slice as a string value.
func (e *enc) vbytes(v []byte) {
	e.sep()
	e.b = appendQuotedBytes(e.b, v)
	e.need = true
}

func (e *enc) str(k, v string)          { e.key(k); e.vstr(v) }
func (e *enc) bytes(k string, v []byte) { e.key(k); e.vbytes(v) }

// strOrNull writes v, or null when v is empty.
func (e *enc) strOrNull(k, v string) {
	if v == "" {
		e.null(k)
		return
	}
	e.str(k, v)
}

func (e *enc) int(k string, v int64) {
	e.key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
	e.need = true
}

func (e *enc) float(k string, v float64) {
	e.key(k)
	e.b = strconv.AppendFloat(e.b, v, 'f', 1, 64)
	e.need = true
}

func (e *enc) bool(k string, v bool) {
	e.key(k)
	e.b = strconv.AppendBool(e.b, v)
	e.need = true
}

func (e *enc) null(k string) {
	e.key(k)
	e.b = append(e.b, "null"...)
	e.need = true
}

// raw writes an already encoded JSON value under key k.
func (e *enc) raw(k string, v []byte) {
	e.key(k)
	e.b = append(e.b, v...)
	e.need = true
}

// time writes t as ISO-8601 UTC with milliseconds, as both agents do.
func (e *enc) time(k string, t time.Time) {
	e.key(k)
	e.b = append(e.b, '"')
	e.b = appendTime(e.b, t)
	e.b = append(e.b, '"')
	e.need = true
}

func appendTime(b []byte, t time.Time) []byte {
	return t.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
}

const hexDigits = "0123456789abcdef"

func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			continue
		}
		if c >= utf8.RuneSelf {
			continue // valid UTF-8 passes through unescaped
		}
		b = append(b, s[start:i]...)
		b = appendEscape(b, c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendQuotedBytes(b []byte, s []byte) []byte {
	b = append(b, '"')
	start := 0
	for i, c := range s {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		b = appendEscape(b, c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\t':
		return append(b, '\\', 't')
	case '\r':
		return append(b, '\\', 'r')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
