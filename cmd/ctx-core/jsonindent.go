package main

import (
	"bytes"
	"encoding/json"
	"io"
)

// writeJSONFast writes v as writeJSON does (two-space indent, HTML left
// unescaped, a final newline), byte for byte, but indents in one pass over
// the compact encoding instead of json.Indent's scanner, writing as it
// goes: for the megabytes of ctx blame --format json on a large file that
// pass was most of the printing time. sizeHint, a guess of the compact
// size, saves regrowing the encoding buffer.
func writeJSONFast(w io.Writer, v any, sizeHint int) error {
	if a, ok := v.(jsonAppender); ok {
		compact, err := a.AppendJSON(make([]byte, 0, sizeHint))
		if err != nil {
			return err
		}
		return indentCompact(w, compact)
	}
	var compact bytes.Buffer
	compact.Grow(sizeHint)
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return indentCompact(w, bytes.TrimRight(compact.Bytes(), "\n"))
}

// jsonAppender is a value that encodes itself compactly, as an Encoder
// without HTML escaping would.
type jsonAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// indentCompact writes src, compact JSON as encoding/json writes it (no
// insignificant whitespace), indented as json.Indent(dst, src, "", "  ")
// would (empty arrays and objects stay [] and {}), and a final newline.
func indentCompact(w io.Writer, src []byte) error {
	const flushAt = 64 << 10
	dst := make([]byte, 0, flushAt+4096)
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i++
				continue
			}
			dst = append(dst, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
		if len(dst) >= flushAt {
			if _, err := w.Write(dst); err != nil {
				return err
			}
			dst = dst[:0]
		}
	}
	dst = append(dst, '\n')
	_, err := w.Write(dst)
	return err
}
