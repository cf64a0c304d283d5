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
