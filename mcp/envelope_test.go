package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// rawSession is the built binary's ctx mcp serve driven with raw lines.
type rawSession struct {
	t     *testing.T
	stdin io.WriteCloser
	out   *bufio.Reader
	cmd   *exec.Cmd
	errb  *bytes.Buffer
}

func startRaw(t *testing.T, w *world) *rawSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second) // a hang guard
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, w.bin, "mcp", "serve")
	cmd.Env = w.env()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &rawSession{t: t, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20), cmd: cmd, errb: &bytes.Buffer{}}
	cmd.Stderr = r.errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	return r
}

func (r *rawSession) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

func (r *rawSession) next() rpcLine {
	r.t.Helper()
	line, err := r.out.ReadBytes('\n')
	if err != nil {
		r.t.Fatalf("read: %v (stderr %s)", err, r.errb.String())
	}
	var l rpcLine
	if err := json.Unmarshal(line, &l); err != nil || l.JSONRPC != "2.0" {
		r.t.Fatalf("not a JSON-RPC response: %v %.300q", err, line)
	}
	return l
}

// envelopes: requests whose envelope breaks the rules get their error
// without being executed, with an id a client can match, and errors speak
// JSON, not Go.
func envelopes(t *testing.T, w *world) {
	r := startRaw(t, w)
	for _, l := range strings.Split(strings.TrimSpace(handshake), "\n") {
		r.send(l)
	}
	if l := r.next(); string(l.ID) != `"init"` || l.Error != nil {
		t.Fatalf("initialize: %+v", l)
	}
	cases := []struct {
		line, id string
		code     int
		not      []string // what the message must not say
	}{
		// ids that are neither a string nor an integer: not executed (a
		// ping would answer with a result), answered with id null.
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600, nil},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", -32600, nil},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "null", -32600, nil},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "null", -32600, nil},
		// a null id is answered (a client waits for it).
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null", -32600, nil},
		{`{"jsonrpc":"2.0","id":"m","method":5}`, `"m"`, -32600, nil},
		// invalid params: -32602, in JSON terms.
		{`{"jsonrpc":"2.0","id":"p1","method":"tools/call","params":"x"}`, `"p1"`, -32602, []string{"Go", "struct", "mcp."}},
		{`{"jsonrpc":"2.0","id":"p2","method":"tools/call","params":{"name":5}}`, `"p2"`, -32602, []string{"Go", "struct", "mcp.", "CallToolRequest"}},
		{`{"jsonrpc":"2.0","id":"p3","method":"tools/list","params":[1]}`, `"p3"`, -32602, []string{"Go", "PaginatedParams"}},
		{`{"jsonrpc":"2.0","id":"p4","method":"ping","params":"x"}`, `"p4"`, -32602, []string{"Go", "RequestParams"}},
		// an unknown tool's name is clipped.
		{`{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"` + strings.Repeat("x", 5000) + `"}}`, `"u"`, -32602,
			[]string{strings.Repeat("x", 100)}},
	}
	for _, c := range cases {
		r.send(c.line)
		l := r.next()
		if string(l.ID) != c.id || l.Error == nil || l.Error.Code != c.code {
			t.Fatalf("%.80s: want error %d with id %s, got id %s error %+v result %.200s", c.line, c.code, c.id, l.ID, l.Error, l.Result)
		}
		for _, bad := range c.not {
			if strings.Contains(l.Error.Message, bad) {
				t.Fatalf("%.80s: the message %q says %.40q", c.line, l.Error.Message, bad)
			}
		}
	}
	// An over-long line is answered with its id when the id is at its
	// start or is its last member (the TypeScript SDK writes it last).
	big := strings.Repeat("a", MaxRequestBytes+10)
	for _, c := range []struct{ line, id string }{
		{`{"jsonrpc":"2.0","id":"head","method":"tools/call","params":{"name":"search","arguments":{"query":"` + big + `"}}}`, `"head"`},
		{`{"method":"tools/call","params":{"name":"search","arguments":{"query":"` + big + `"}},"jsonrpc":"2.0","id":77}`, "77"},
		{`{"method":"tools/call","params":{"name":"search","arguments":{"query":"` + big + `","id":5}}}`, "null"},
	} {
		r.send(c.line)
		if l := r.next(); string(l.ID) != c.id || l.Error == nil || l.Error.Code != -32600 {
			t.Fatalf("over-long line: want -32600 with id %s, got id %s %+v", c.id, l.ID, l.Error)
		}
	}
	// Still serving.
	r.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if l := r.next(); string(l.ID) != `"after"` || l.Error != nil {
		t.Fatalf("ping after bad envelopes: %+v", l)
	}
}

// TestArgsIntegralNumbers: an integer argument written as 1.0 or 1e2 (JSON
// Schema's integer admits both) decodes; 1.5 stays a type error; a tool
// without arguments says so instead of listing none.
func TestArgsIntegralNumbers(t *testing.T) {
	var in struct {
		Limit int     `json:"limit"`
		W     float64 `json:"w"`
		Q     string  `json:"q"`
	}
	for raw, want := range map[string]int{`{"limit":1.0}`: 1, `{"limit":1e2,"w":0.5,"q":"a.b e"}`: 100, `{"limit":-3.0}`: -3} {
		in.Limit = 0
		if err := decodeArgs(mcpgo.CallToolParams{RawArguments: json.RawMessage(raw)}, &in); err != nil || in.Limit != want {
			t.Fatalf("%s: limit %d, %v; want %d", raw, in.Limit, err, want)
		}
	}
	if in.W != 0.5 || in.Q != "a.b e" {
		t.Fatalf("other fields changed: %+v", in)
	}
	if err := decodeArgs(mcpgo.CallToolParams{RawArguments: json.RawMessage(`{"limit":1.5}`)}, &in); err == nil {
		t.Fatal("limit 1.5 decoded")
	}
	var none struct{}
	err := decodeArgs(mcpgo.CallToolParams{RawArguments: json.RawMessage(`{"x":1}`)}, &none)
	if err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Fatalf("unknown argument of a tool without arguments: %v", err)
	}
}

// TestUnknownArgumentListsEmbedded: the valid arguments an unknown one is
// answered with include those of embedded input structs.
func TestUnknownArgumentListsEmbedded(t *testing.T) {
	for _, in := range []any{&statsInput{}, &listSessionsInput{}} {
		err := decodeArgs(mcpgo.CallToolParams{RawArguments: json.RawMessage(`{"x":1}`)}, in)
		if err == nil || !strings.Contains(err.Error(), "machines, ") || !strings.Contains(err.Error(), "providers, ") {
			t.Fatalf("%T: %v", in, err)
		}
	}
}

// TestCursorErrorsSayRetryable: every invalid_cursor error object carries
// details.retryable, whichever layer refused the cursor.
func TestCursorErrorsSayRetryable(t *testing.T) {
	for _, err := range []error{checkCursorShape(""), checkCursorShape("é")} {
		obj := errorObject(err, nil)
		if obj.ErrorCode != "invalid_cursor" || obj.Details["retryable"] != false {
			t.Fatalf("%v: %+v", err, obj)
		}
	}
}
