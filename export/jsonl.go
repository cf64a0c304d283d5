package export

import (
	"encoding/json"
	"io"

	"ctx/core"
)

// jsonlRecord is one line: a header, events, then a completion record.
// JSON escapes <, > and & too, so the file is safe to embed in a page.
type jsonlRecord struct {
	Type       string      `json:"type"`
	Header     *Header     `json:"header,omitempty"`
	Event      *core.Event `json:"event,omitempty"`
	Completion *struct {
		Events int `json:"events"`
	} `json:"completion,omitempty"`
}

type jsonlWriter struct{ enc *json.Encoder }

func newJSONL(w io.Writer) *jsonlWriter { return &jsonlWriter{enc: json.NewEncoder(w)} }

func (j *jsonlWriter) begin(h *Header) error {
	return j.enc.Encode(jsonlRecord{Type: "header", Header: h})
}

func (j *jsonlWriter) event(e *core.Event) error {
	return j.enc.Encode(jsonlRecord{Type: "event", Event: e})
}

func (j *jsonlWriter) end(n int) error {
	rec := jsonlRecord{Type: "completion"}
	rec.Completion = &struct {
		Events int `json:"events"`
	}{n}
	return j.enc.Encode(rec)
}
