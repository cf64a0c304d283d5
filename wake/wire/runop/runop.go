// Package runop writes the run op's request and reads its reply in the
// JSON of package wire, without encoding/json. It is the ctx front's half
// of the protocol: linking encoding/json, and its reflection on first use,
// cost the front about 1.5 ms of a warm search that takes 10 (the daemon's
// half decodes and encodes these lines with encoding/json and package
// wire's types, and the tests hold the two to the same bytes).
package runop

import (
	"errors"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxRequest bounds one request line (a search's filters included).
const MaxRequest = 64 << 10

// Wait bounds how long the ctx front waits for a run op's reply: the
// daemon's wait for its import of what changed (a wake's 2 s) and the
// search (5 s). Past it the front runs the command itself.
const Wait = 7 * time.Second

// Request is a run op: a command line (without the program's name) run
// by the daemon as ctx-core would run it in Dir with Env.
type Request struct {
	Version              string
	Args                 []string
	Dir                  string
	Env                  []string
	StdoutTTY, StderrTTY bool
}

// ErrNotUTF8 is returned for a request with a string that is not valid
// UTF-8: JSON would carry it altered, so the daemon would not run the
// command the client was given.
var ErrNotUTF8 = errors.New("runop: a string of the request is not valid UTF-8")

// Append appends the request as one line of wire.Request's JSON (op
// "run"), without the newline.
func (r *Request) Append(b []byte) ([]byte, error) {
	b = append(b, `{"op":"run"`...)
	var ok bool
	if r.Version != "" {
		b = append(b, `,"version":`...)
		if b, ok = appendString(b, r.Version); !ok {
			return nil, ErrNotUTF8
		}
	}
	for _, f := range []struct {
		name string
		list []string
	}{{"args", r.Args}, {"env", r.Env}} {
		if len(f.list) == 0 {
			continue
		}
		b = append(b, `,"`...)
		b = append(b, f.name...)
		b = append(b, `":[`...)
		for i, s := range f.list {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendString(b, s); !ok {
				return nil, ErrNotUTF8
			}
		}
		b = append(b, ']')
	}
	if r.StdoutTTY {
		b = append(b, `,"stdout_tty":true`...)
	}
	if r.StderrTTY {
		b = append(b, `,"stderr_tty":true`...)
	}
	if r.Dir != "" {
		b = append(b, `,"dir":`...)
		if b, ok = appendString(b, r.Dir); !ok {
			return nil, ErrNotUTF8
		}
	}
	return append(b, '}'), nil
}

// appendString appends s as a JSON string; false when s is not valid
// UTF-8.
func appendString(b []byte, s string) ([]byte, bool) {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return b, false
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"'), true
}

// Reply is what the front reads of a reply: whether the daemon ran the
// command, why not, and what the command wrote and its exit code (Ran
// false when the reply holds no run).
type Reply struct {
	OK             bool
	Error          string
	Ran            bool
	Stdout, Stderr string
	Exit           int
}

// ErrSyntax is returned for a reply line that is not the JSON of a
// wire.Reply.
var ErrSyntax = errors.New("runop: the reply is not a wire reply")

// ParseReply reads a reply line (wire.Reply's JSON, the newline
// optional). Fields other than ok, error and run are skipped. It decodes
// escaped strings in place: line's bytes are not kept, but may be
// overwritten.
func ParseReply(line []byte) (Reply, error) {
	p := parser{in: line}
	var r Reply
	err := p.object(func(key string) error {
		switch key {
		case "ok":
			v, err := p.boolean()
			r.OK = v
			return err
		case "error":
			s, err := p.str()
			r.Error = s
			return err
		case "run":
			if p.null() {
				return nil
			}
			r.Ran = true
			return p.object(func(key string) error {
				var err error
				switch key {
				case "stdout":
					r.Stdout, err = p.str()
				case "stderr":
					r.Stderr, err = p.str()
				case "exit":
					r.Exit, err = p.integer()
				default:
					err = p.skip()
				}
				return err
			})
		}
		return p.skip()
	})
	if err != nil {
		return Reply{}, err
	}
	p.space()
	if p.i != len(p.in) {
		return Reply{}, ErrSyntax
	}
	return r, nil
}

// parser reads the JSON values of one line.
type parser struct {
	in []byte
	i  int
}

func (p *parser) space() {
	for p.i < len(p.in) {
		switch p.in[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, 0 at the end.
func (p *parser) peek() byte {
	p.space()
	if p.i < len(p.in) {
		return p.in[p.i]
	}
	return 0
}

func (p *parser) literal(s string) bool {
	p.space()
	if len(p.in)-p.i >= len(s) && string(p.in[p.i:p.i+len(s)]) == s {
		p.i += len(s)
		return true
	}
	return false
}

func (p *parser) null() bool { return p.literal("null") }

func (p *parser) boolean() (bool, error) {
	switch {
	case p.literal("true"):
		return true, nil
	case p.literal("false"):
		return false, nil
	}
	return false, ErrSyntax
}

// object reads an object, calling field for each key with the parser at
// its value.
func (p *parser) object(field func(key string) error) error {
	if p.peek() != '{' {
		return ErrSyntax
	}
	p.i++
	if p.peek() == '}' {
		p.i++
		return nil
	}
	for {
		key, err := p.str()
		if err != nil {
			return err
		}
		if p.peek() != ':' {
			return ErrSyntax
		}
		p.i++
		if err := field(key); err != nil {
			return err
		}
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return ErrSyntax
		}
	}
}

// number returns the bytes of a JSON number.
func (p *parser) number() ([]byte, error) {
	p.space()
	start := p.i
	for p.i < len(p.in) && (p.in[p.i] >= '0' && p.in[p.i] <= '9' || p.in[p.i] == '-' || p.in[p.i] == '+' ||
		p.in[p.i] == '.' || p.in[p.i] == 'e' || p.in[p.i] == 'E') {
		p.i++
	}
	if p.i == start {
		return nil, ErrSyntax
	}
	return p.in[start:p.i], nil
}

func (p *parser) integer() (int, error) {
	b, err := p.number()
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return 0, ErrSyntax
	}
	return n, nil
}

// skip reads a value of any kind.
func (p *parser) skip() error {
	switch p.peek() {
	case '{':
		return p.object(func(string) error { return p.skip() })
	case '[':
		p.i++
		if p.peek() == ']' {
			p.i++
			return nil
		}
		for {
			if err := p.skip(); err != nil {
				return err
			}
			switch p.peek() {
			case ',':
				p.i++
			case ']':
				p.i++
				return nil
			default:
				return ErrSyntax
			}
		}
	case '"':
		_, err := p.str()
		return err
	case 't', 'f':
		_, err := p.boolean()
		return err
	case 'n':
		if p.null() {
			return nil
		}
		return ErrSyntax
	}
	_, err := p.number()
	return err
}

// str reads a string, decoding its escapes as encoding/json does (a lone
// surrogate becomes U+FFFD).
// str reads a string. An escaped one is decoded in place, over its own
// bytes (a decoded escape is never longer than the escape), so that a
// search's output is copied once, into the string returned.
func (p *parser) str() (string, error) {
	if p.peek() != '"' {
		return "", ErrSyntax
	}
	p.i++
	start := p.i
	for p.i < len(p.in) { // the common case: no escape
		c := p.in[p.i]
		if c == '"' {
			s := string(p.in[start:p.i])
			p.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.i++
	}
	w := p.i // the decoded string is p.in[start:w]
	put := func(b ...byte) { w += copy(p.in[w:], b) }
	for p.i < len(p.in) {
		c := p.in[p.i]
		switch {
		case c == '"':
			p.i++
			return string(p.in[start:w]), nil
		case c < 0x20:
			return "", ErrSyntax
		case c != '\\':
			p.in[w] = c
			w++
			p.i++
			continue
		}
		if p.i+1 >= len(p.in) {
			return "", ErrSyntax
		}
		e := p.in[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			put(e)
		case 'b':
			put('\b')
		case 'f':
			put('\f')
		case 'n':
			put('\n')
		case 'r':
			put('\r')
		case 't':
			put('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", ErrSyntax
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if save := p.i; p.i+1 < len(p.in) && p.in[p.i] == '\\' && p.in[p.i+1] == 'u' {
					p.i += 2
					if lo, ok := p.hex4(); ok {
						if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
							r2 = d
						} else {
							p.i = save // not a pair: the second escape stands alone
						}
					} else {
						return "", ErrSyntax
					}
				}
				r = r2
			}
			var buf [utf8.UTFMax]byte
			put(buf[:utf8.EncodeRune(buf[:], r)]...)
		default:
			return "", ErrSyntax
		}
	}
	return "", ErrSyntax
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.in) {
		return 0, false
	}
	var r rune
	for _, c := range p.in[p.i : p.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}
