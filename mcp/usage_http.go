package mcp

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"time"
)

// usageWriter keeps what the HTTP door writes in answer to one recognized
// tools/call, so that the call is counted once the handler has returned,
// its answer written and flushed: the HTTP twin of the stdio transport
// counting a written line. It counts every body byte (the SSE framing too
// when mcp-go streams the answer) and keeps at most maxUsageCapture of them
// to classify the answer.
type usageWriter struct {
	http.ResponseWriter
	status int
	n      int64
	body   bytes.Buffer
	failed bool
}

// maxUsageCapture bounds the bytes kept to classify an answer: a response
// is at most MaxResponseBytes, with room for SSE framing.
const maxUsageCapture = 2 * MaxResponseBytes

func (u *usageWriter) WriteHeader(code int) {
	if u.status == 0 {
		u.status = code
	}
	u.ResponseWriter.WriteHeader(code)
}

func (u *usageWriter) Write(p []byte) (int, error) {
	if u.status == 0 {
		u.status = http.StatusOK
	}
	n, err := u.ResponseWriter.Write(p)
	u.n += int64(n)
	if err != nil {
		u.failed = true
	}
	if room := maxUsageCapture - u.body.Len(); room > 0 {
		u.body.Write(p[:min(n, room)])
	}
	return n, err
}

func (u *usageWriter) Flush() {
	if f, ok := u.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (u *usageWriter) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// count records the delivered call of tool, if its answer was a JSON-RPC
// response written whole.
func (u *usageWriter) count(s *Server, tool string, start time.Time) {
	if u.failed || u.status != http.StatusOK {
		return
	}
	msg := answerMessage(u.Header().Get("Content-Type"), u.body.Bytes())
	if msg == nil {
		return
	}
	s.usage.Record(tool, bytes.Clone(msg), u.n, time.Since(start))
}

// answerMessage is the JSON-RPC response in an answer body: the body itself
// for application/json, the data of the event holding a response for
// text/event-stream (notifications may come first); nil when there is none.
func answerMessage(contentType string, body []byte) []byte {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != "text/event-stream" {
		if msg := bytes.TrimSpace(body); isResponse(msg) {
			return msg
		}
		return nil
	}
	for event := range bytes.SplitSeq(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n\n")) {
		var data [][]byte
		for line := range bytes.SplitSeq(event, []byte("\n")) {
			if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				data = append(data, bytes.TrimPrefix(d, []byte(" ")))
			}
		}
		if msg := bytes.Join(data, []byte("\n")); isResponse(msg) {
			return msg
		}
	}
	return nil
}

// isResponse reports whether msg is one JSON-RPC response (an id with a
// result or an error).
func isResponse(msg []byte) bool {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	return json.Unmarshal(msg, &r) == nil && r.ID != nil && (r.Result != nil || r.Error != nil)
}
