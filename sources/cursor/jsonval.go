package cursor

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"ctx/sources/jsonx"
)

// msTime is a timestamp Cursor writes as epoch milliseconds (a number or a
// numeric string) or as an ISO 8601 string. Anything else reads as zero,
// never as a decoding error, so one odd field does not lose a record.
type msTime struct{ time.Time }

func (t *msTime) UnmarshalJSON(b []byte) error {
	t.Time = parseTime(b)
	return nil
}

func parseTime(b []byte) time.Time {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return time.Time{}
	}
	if b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return time.Time{}
		}
		if ms, err := strconv.ParseFloat(s, 64); err == nil {
			return fromMillis(ms)
		}
		if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return ts.UTC()
		}
		return time.Time{}
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return time.Time{}
	}
	return fromMillis(ms)
}

// fromMillis converts epoch milliseconds; values outside 1970..~2300 are
// not timestamps.
func fromMillis(ms float64) time.Time {
	if math.IsNaN(ms) || ms <= 0 || ms > 1e13 {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms)).UTC()
}

// flexInt is an integer that may be written as a number or a numeric
// string; Set is false when the field is absent or not an integer.
type flexInt struct {
	N   int
	Set bool
	Bad bool // present but not an integer
}

func (v *flexInt) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		_ = json.Unmarshal(b, &s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		v.Bad = true
		return nil
	}
	v.N, v.Set = n, true
	return nil
}

// embedded returns the JSON document held in raw: Cursor stores params and
// results as JSON text inside a JSON string, newer or synthetic rows as an
// object. null and empty values give nil.
func embedded(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) == "" {
			return nil
		}
		return []byte(s)
	}
	return raw
}

// valueText renders a JSON value as text: strings unquoted, other values
// compact JSON, and anything that is not JSON verbatim.
func valueText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

// renderArgs renders a JSON object of tool arguments as "key: value" lines
// in the order written. Anything that is not an object is returned as text.
func renderArgs(args []byte) string {
	if s, ok := jsonx.ObjectLines(args, valueText); ok {
		return s
	}
	return valueText(args)
}

// richTextPlain extracts the text of a rich-text document (the editor's
// JSON tree): every "text" leaf in order, with paragraphs and line breaks
// as newlines. It is used only when a bubble has no plain text.
func richTextPlain(doc string) string {
	var root any
	if json.Unmarshal([]byte(doc), &root) != nil {
		return ""
	}
	var b strings.Builder
	walkRich(root, &b, 0)
	return strings.TrimSpace(b.String())
}

func walkRich(n any, b *strings.Builder, depth int) {
	if depth > 64 {
		return
	}
	switch v := n.(type) {
	case []any:
		for _, c := range v {
			walkRich(c, b, depth+1)
		}
	case map[string]any:
		if t, ok := v["text"].(string); ok {
			b.WriteString(t)
		}
		for _, k := range []string{"root", "children", "content"} {
			if c, ok := v[k]; ok {
				walkRich(c, b, depth+1)
			}
		}
		switch v["type"] {
		case "paragraph", "linebreak", "hardBreak", "heading":
			b.WriteByte('\n')
		}
	}
}
