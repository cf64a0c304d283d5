package integrations

import (
	"bytes"
	"strconv"
)

// lineKind classifies a line of a TOML file for textual edits.
type lineKind int

const (
	lineOther   lineKind = iota // a key/value or the continuation of a value
	lineBlank                   // only whitespace
	lineComment                 // only a comment
	lineHeader                  // a [table] or [[array]] header
)

// tomlLine is one line of a TOML file.
type tomlLine struct {
	start, end int // byte range, line break included
	kind       lineKind
	path       []string // the table path of a header, or the key of a key/value line
}

// lexState carries what spans lines: a multi-line string being read and the
// nesting depth of arrays and inline tables.
type lexState struct {
	ml    byte // '"' or '\'' inside a multi-line string, else 0
	depth int
}

// scanTOML splits a valid TOML file into classified lines. Lines inside
// multi-line strings and multi-line arrays are never taken for headers.
func scanTOML(data []byte) []tomlLine {
	var lines []tomlLine
	var st lexState
	for start := 0; start < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line := data[start:end]
		l := tomlLine{start: start, end: end}
		t := bytes.TrimLeft(line, " \t")
		switch {
		case st.ml != 0 || st.depth > 0:
			st.scan(line)
		case len(bytes.TrimSpace(t)) == 0:
			l.kind = lineBlank
		case t[0] == '#':
			l.kind = lineComment
		case t[0] == '[':
			l.kind, l.path = lineHeader, parseHeader(t)
		default:
			l.path = parseKeyPath(t, 0, '=')
			st.scan(line)
		}
		lines = append(lines, l)
		start = end
	}
	return lines
}

// scan follows strings, comments and brackets through one line.
func (st *lexState) scan(line []byte) {
	for i := 0; i < len(line); {
		if st.ml != 0 {
			i = st.scanMultiline(line, i)
			continue
		}
		switch c := line[i]; {
		case c == '#':
			return
		case bytes.HasPrefix(line[i:], []byte(`"""`)), bytes.HasPrefix(line[i:], []byte(`'''`)):
			st.ml, i = c, i+3
		case c == '"':
			i = skipBasic(line, i+1)
		case c == '\'':
			i = skipLiteral(line, i+1)
		case c == '[' || c == '{':
			st.depth, i = st.depth+1, i+1
		case c == ']' || c == '}':
			st.depth, i = st.depth-1, i+1
		default:
			i++
		}
	}
}

// scanMultiline advances through a multi-line string from i, ending it at
// its closing delimiter (which may follow up to two quotes of content).
func (st *lexState) scanMultiline(line []byte, i int) int {
	q := st.ml
	if q == '"' && line[i] == '\\' {
		return i + 2
	}
	if line[i] != q {
		return i + 1
	}
	n := 0
	for i+n < len(line) && line[i+n] == q {
		n++
	}
	if n >= 3 {
		st.ml = 0
	}
	return i + n
}

func skipBasic(line []byte, i int) int {
	for i < len(line) && line[i] != '"' {
		if line[i] == '\\' {
			i++
		}
		i++
	}
	return i + 1
}

func skipLiteral(line []byte, i int) int {
	if j := bytes.IndexByte(line[i:], '\''); j >= 0 {
		return i + j + 1
	}
	return len(line)
}

// parseHeader returns the key path of a [table] or [[array]] header line,
// or nil when it cannot read it.
func parseHeader(t []byte) []string {
	i := 1
	if len(t) > 1 && t[1] == '[' {
		i = 2
	}
	return parseKeyPath(t, i, ']')
}

// parseKeyPath reads a dotted key from t[i:] up to the byte end.
func parseKeyPath(t []byte, i int, end byte) []string {
	var path []string
	for {
		i = skipSpace(t, i)
		key, n := parseKey(t[i:])
		if n == 0 {
			return nil
		}
		path, i = append(path, key), skipSpace(t, i+n)
		switch {
		case i < len(t) && t[i] == '.':
			i++
		case i < len(t) && t[i] == end:
			return path
		default:
			return nil
		}
	}
}

func skipSpace(t []byte, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// parseKey reads one bare, basic-quoted or literal-quoted key and returns it
// with the bytes it took, or n == 0 when there is none.
func parseKey(t []byte) (key string, n int) {
	switch {
	case len(t) == 0:
		return "", 0
	case t[0] == '"':
		end := skipBasic(t, 1)
		if end > len(t) {
			return "", 0
		}
		k, err := strconv.Unquote(string(t[:end]))
		if err != nil {
			return "", 0
		}
		return k, end
	case t[0] == '\'':
		j := bytes.IndexByte(t[1:], '\'')
		if j < 0 {
			return "", 0
		}
		return string(t[1 : 1+j]), j + 2
	}
	for n < len(t) && isBareKeyByte(t[n]) {
		n++
	}
	return string(t[:n]), n
}

func isBareKeyByte(c byte) bool {
	return c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// tomlKey writes a key bare when it can be, else quoted.
func tomlKey(k string) string {
	for i := 0; i < len(k); i++ {
		if !isBareKeyByte(k[i]) {
			return tomlString(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

// tomlString writes a TOML basic string.
func tomlString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u00` + strconv.FormatInt(int64(r)>>4, 16) + strconv.FormatInt(int64(r)&0xf, 16))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
