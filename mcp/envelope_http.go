package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// judgeHTTP applies the envelope rules of envelope.go to a POSTed JSON-RPC
// message of the HTTP door: it answers a request it must not pass on and
// reports true, else it restores the body for mcp-go and reports false with
// the recognized tool of a well-formed tools/call ("" for anything else),
// which the door counts as usage once its answer is written. Only the first
// MaxRequestBytes of the body are read here.
func (d *door) judgeHTTP(w http.ResponseWriter, r *http.Request) (answered bool, tool string) {
	if r.Method != http.MethodPost || r.Body == nil {
		return false, ""
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes+1))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil || len(head) > MaxRequestBytes {
		return false, ""
	}
	var env envelope
	if json.Unmarshal(head, &env) != nil || !env.isRequest() {
		return false, ""
	}
	rej := judge(head, &env, d.s.tools)
	if rej == nil {
		return false, env.tool(d.s.tools)
	}
	msg, _ := json.Marshal(rej.message)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`+"\n", rej.id, rej.code, msg)
	return true, ""
}
