// Package jsonx holds the small JSON helpers the providers share for
// rendering tool arguments and values as readable text.
package jsonx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	segjson "github.com/segmentio/encoding/json"

	"ctx/core"
)

// Decode is json.Unmarshal into v, a pointer to a zero value, in about
// half its time: segmentio's decoder reads valid JSON as encoding/json
// does and skips its separate validation pass (a third of a Codex
// history's parse). It stops at the first field of an unexpected type,
// where encoding/json goes on and keeps the fields after it; so on any
// error v is zeroed and encoding/json decodes again, and its result and
// error are the answer (TestDecodeIsUnmarshal).
func Decode(data []byte, v any) error {
	if segjson.Unmarshal(data, v) == nil {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero()
	}
	return json.Unmarshal(data, v)
}

// Unmarshal is json.Unmarshal with its failure named as a problem code:
// "" when data decoded into v, core.ProblemInvalidJSON for text that is
// not JSON, core.ProblemInvalidRecord for JSON that v cannot hold.
func Unmarshal(data []byte, v any) string {
	switch {
	case json.Unmarshal(data, v) == nil:
		return ""
	case !json.Valid(data):
		return core.ProblemInvalidJSON
	}
	return core.ProblemInvalidRecord
}

// Block is what a content block of Anthropic's message format holds in
// every history that stores it (Amp, Cline): its type, the text of a text
// block, the reasoning of a thinking block, and the id, name and input of
// a tool_use block.
type Block struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
}

// Blocks decodes a message content of that format: a string is one text
// block (made by text), an array its blocks (as far as they decode), null
// or nothing no block. ok is false for any other value, and for an array
// that did not decode whole.
func Blocks[B any](content json.RawMessage, text func(string) B) (bs []B, ok bool) {
	switch FirstByte(content) {
	case '"':
		return []B{text(String(content))}, true
	case '[':
		ok = json.Unmarshal(content, &bs) == nil
		return bs, ok
	case 0, 'n':
		return nil, true
	}
	return nil, false
}

// FirstByte returns the first non-space byte of b (0 when there is none).
func FirstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// String decodes a JSON string value; other values are returned as
// their JSON text.
func String(raw json.RawMessage) string {
	if FirstByte(raw) != '"' {
		return string(bytes.TrimSpace(raw))
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(bytes.TrimSpace(raw))
	}
	return s
}

// RenderArgs renders a JSON object as "key: value" lines in written order,
// strings unquoted; anything else is returned as is.
func RenderArgs(args json.RawMessage) string {
	if FirstByte(args) != '{' {
		return String(args)
	}
	if s, ok := ObjectLines(args, String); ok {
		return s
	}
	return string(args)
}

// ObjectLines renders a JSON object as "key: value" lines in written
// order, each value as value renders it. ok is false when raw is not a
// well-formed object: the caller says what to show instead.
func ObjectLines(raw json.RawMessage, value func(json.RawMessage) string) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", false
	}
	var b strings.Builder
	for dec.More() {
		k, err := dec.Token()
		key, isKey := k.(string)
		var v json.RawMessage
		if err != nil || !isKey || dec.Decode(&v) != nil {
			return "", false
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(key)
		b.WriteString(": ")
		b.WriteString(value(v))
	}
	return b.String(), true
}
