package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// DrainTimeout bounds how long end-of-input waits for requests still in
// flight. Each one is normally answered in milliseconds; the bound only
// keeps a request that never gets an answer from holding the process.
const DrainTimeout = 10 * time.Second

// maxTrackedLine bounds the bytes of one input line the transport keeps to
// learn its id; a longer line is passed through untracked.
const maxTrackedLine = 16 << 20

// call is a request read from the input and not answered yet.
type call struct {
	id    string    // canonical JSON of the JSON-RPC id
	tool  string    // the recognized tool of a well-formed tools/call, else ""
	start time.Time // when its line was read
}

// transport sits between stdio and mcp-go's stdio server. The reader
// records every request it hands on; the writer writes whole lines and
// matches each response to its request. End of input reaches mcp-go only
// once nothing is in flight, because mcp-go v1.2.1 cancels and may drop
// requests still being served when its input ends.
type transport struct {
	drain    time.Duration
	in       io.Reader
	out      io.Writer
	tools    map[string]bool
	answered func(c *call, line []byte) // after a tool response was written

	mu      sync.Mutex
	pending map[string][]*call
	n       int
	changed chan struct{} // closed and replaced whenever n drops
}

func newTransport(in io.Reader, out io.Writer, tools map[string]bool, answered func(*call, []byte)) *transport {
	return &transport{drain: DrainTimeout, in: in, out: out, tools: tools, answered: answered,
		pending: map[string][]*call{}, changed: make(chan struct{})}
}

func (t *transport) reader(ctx context.Context) io.Reader { return &gateReader{t: t, ctx: ctx} }
func (t *transport) writer() io.Writer                    { return &tapWriter{t: t} }

// track records a request line. It mirrors how mcp-go decides that a line
// is a request it will answer with this id: valid JSON, a string method, a
// non-null id and no result.
func (t *transport) track(line []byte) {
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		ID      any             `json:"id"`
		Result  any             `json:"result"`
		Params  json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &env) != nil || env.ID == nil || env.Result != nil {
		return
	}
	c := &call{id: idKey(env.ID), start: time.Now()}
	if env.Method == "tools/call" && env.JSONRPC == "2.0" && validID(env.ID) {
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(env.Params, &p) == nil && t.tools[p.Name] {
			c.tool = p.Name
		}
	}
	t.mu.Lock()
	t.pending[c.id] = append(t.pending[c.id], c)
	t.n++
	t.mu.Unlock()
}

// done matches a written response line to its request.
func (t *transport) done(line []byte, werr error) {
	id, ok := responseID(line)
	if !ok {
		return
	}
	t.mu.Lock()
	q := t.pending[id]
	if len(q) == 0 {
		t.mu.Unlock()
		return
	}
	c := q[0]
	if len(q) == 1 {
		delete(t.pending, id)
	} else {
		t.pending[id] = q[1:]
	}
	t.n--
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
	if c.tool != "" && werr == nil && t.answered != nil {
		t.answered(c, line)
	}
}

// waitIdle returns when nothing is in flight, after d, or when ctx ends,
// and reports how many requests are still unanswered.
func (t *transport) waitIdle(ctx context.Context, d time.Duration) int {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		n, ch := t.n, t.changed
		t.mu.Unlock()
		if n == 0 {
			return 0
		}
		select {
		case <-ch:
		case <-deadline.C:
			return n
		case <-ctx.Done():
			return n
		}
	}
}

// unanswered is the number of requests read and not answered.
func (t *transport) unanswered() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// gateReader hands input to mcp-go, tracking requests, and holds the end
// of input back until every tracked request has been answered.
type gateReader struct {
	t    *transport
	ctx  context.Context
	line []byte
	big  bool // the current line outgrew maxTrackedLine
	err  error
}

func (g *gateReader) Read(p []byte) (int, error) {
	if g.err != nil {
		g.t.waitIdle(g.ctx, g.t.drain)
		return 0, g.err
	}
	n, err := g.t.in.Read(p)
	g.scan(p[:n])
	if err != nil {
		g.err = err
		if n == 0 {
			g.t.waitIdle(g.ctx, g.t.drain)
			return 0, err
		}
	}
	return n, nil
}

// scan tracks every line completed by chunk.
func (g *gateReader) scan(chunk []byte) {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			g.keep(chunk)
			return
		}
		g.keep(chunk[:i])
		if !g.big {
			g.t.track(g.line)
		}
		g.line, g.big = g.line[:0], false
		chunk = chunk[i+1:]
	}
}

func (g *gateReader) keep(b []byte) {
	if g.big || len(g.line)+len(b) > maxTrackedLine {
		g.line, g.big = g.line[:0], true
		return
	}
	g.line = append(g.line, b...)
}

// tapWriter writes whole lines to the output and reports each one.
type tapWriter struct {
	t   *transport
	mu  sync.Mutex
	buf []byte
}

func (w *tapWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var first error
	data := p
	if len(w.buf) > 0 {
		w.buf = append(w.buf, p...)
		data = w.buf
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		line := data[:i+1]
		_, err := w.t.out.Write(line)
		if err != nil && first == nil {
			first = err
		}
		w.t.done(line, err)
		data = data[i+1:]
	}
	w.buf = append(w.buf[:0], data...)
	if first != nil {
		return 0, first
	}
	return len(p), nil
}

// validID reports whether a JSON-RPC id is a string or a number; other ids
// are answered but never counted as usage.
func validID(v any) bool {
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// idKey is the canonical form of a JSON-RPC id decoded into any.
func idKey(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// responseID returns the id of a response line, reading only as far as the
// id (mcp-go writes it second, before the result).
func responseID(line []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		if tok == "id" {
			var v any
			if dec.Decode(&v) != nil || v == nil {
				return "", false
			}
			return idKey(v), true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return "", false
		}
	}
	return "", false
}

// responseOutcome classifies a tool response line: ok, tool_error (isError
// true) or protocol_error (a JSON-RPC error).
func responseOutcome(line []byte) string {
	var r struct {
		Error  json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &r) != nil || len(r.Error) > 0 {
		return outcomeProtocolError
	}
	if r.Result.IsError {
		return outcomeToolError
	}
	return outcomeOK
}
