package gemini

import (
	"bytes"
	"encoding/json"

	"ctx/core"
	"ctx/sources/jsonx"
)

// parseDocument reads a legacy whole-file chat. Gemini CLI rewrites the
// file on every update, so a read can catch it half written: a file that
// is not valid JSON yields invalid_json and no session at all, and the
// import keeps the version it read before.
func (b *builder) parseDocument(data []byte) {
	if len(bytes.TrimSpace(data)) == 0 {
		return
	}
	if !json.Valid(data) {
		b.invalid = true
		b.problemAt(core.ProblemInvalidJSON, 0)
		return
	}
	if jsonx.FirstByte(data) != '{' {
		b.invalid = true
		b.problemAt(core.ProblemInvalidRecord, 0)
		return
	}
	var doc document
	if err := json.Unmarshal(data, &doc); err != nil {
		// A field of an unexpected type: keep what decoded.
		b.problemAt(core.ProblemInvalidRecord, 0)
	}
	b.records++
	if doc.SessionID == "" {
		b.problemAt(core.ProblemInvalidRecord, 0)
	} else {
		b.haveMeta = true
	}
	b.mergeMeta(doc.meta)
	msgs, bad := decodeMessages(doc.Messages)
	for range bad {
		b.problemAt(core.ProblemInvalidRecord, 0)
	}
	for _, m := range msgs {
		b.upsert(m, 0)
	}
}
