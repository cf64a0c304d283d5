package claude

import (
	"bytes"
	"encoding/json"
)

// Size limits of renderings that are not conversation content.
const (
	maxOtherText   = 2 << 10  // bookkeeping and unknown records
	maxSystemText  = 64 << 10 // system record content (hook output, notices)
	maxInlineValue = 512      // a small field quoted inside a rendering
)

type field struct {
	key   string
	value []byte
}

// objectFields returns the top-level fields of a JSON object in order.
func objectFields(raw []byte) ([]field, bool) {
	var out []field
	ok := eachField(raw, func(k, v []byte) {
		key, _ := unquote(append(append([]byte{'"'}, k...), '"'))
		out = append(out, field{key: key, value: v})
	})
	return out, ok
}

// stringValue unquotes raw when it is a JSON string.
func stringValue(raw []byte) (string, bool) {
	if firstByte(raw) != '"' {
		return "", false
	}
	return unquote(raw)
}

func compactJSON(raw []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}
