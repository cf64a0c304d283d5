package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// DrainTimeout bounds how long end-of-input waits for requests still in
// flight. Each one is normally answered in milliseconds; the bound only
// keeps a request that never gets an answer from holding the process.
const DrainTimeout = 10 * time.Second

// MaxRequestBytes bounds one input line, newline excluded. A longer line is
// read and discarded without being kept, and answered with an
// invalid-request error (id null): no ctx tool takes arguments anywhere
// near this size, and the bound keeps one line from holding the memory of
// the process.
const MaxRequestBytes = 4 << 20

// readChunk is how much input is read at a time.
const readChunk = 64 << 10

// JSON-RPC error codes the transport answers with itself.
const (
	codeInvalidRequest = -32600
)

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

	w           *tapWriter
	initialized bool // an initialize request has been read (reader goroutine only)
	// onInitialize sees each initialize request's params in input order,
	// before any later request is served.
	onInitialize func(json.RawMessage)
}

func newTransport(in io.Reader, out io.Writer, tools map[string]bool, answered func(*call, []byte)) *transport {
	t := &transport{drain: DrainTimeout, in: in, out: out, tools: tools, answered: answered,
		pending: map[string][]*call{}, changed: make(chan struct{})}
	t.w = &tapWriter{t: t}
	return t
}

func (t *transport) reader(ctx context.Context) io.Reader { return &gateReader{t: t, ctx: ctx} }
func (t *transport) writer() io.Writer                    { return t.w }

// beforeInitialize are the requests a client may send before initialize:
// the handshake itself, the revision probe and ping.
var beforeInitialize = map[string]bool{"initialize": true, "server/discover": true, "ping": true}

// admit judges a complete input line in input order and reports whether it
// goes on to mcp-go. A request other than the handshake that arrives before
// any initialize is answered here with an invalid-request error and goes no
// further (mcp-go v1.2.1 would serve it). Every other request is tracked:
// this mirrors how mcp-go decides that a line is a request it will answer
// with this id: valid JSON, a string method, a non-null id and no result.
func (t *transport) admit(line []byte) bool {
	var env envelope
	if json.Unmarshal(line, &env) != nil {
		return true
	}
	if !env.isRequest() {
		return true // a notification or a response: mcp-go's
	}
	if r := judge(line, &env, t.tools); r != nil {
		t.reject(r.id, r.code, r.message)
		return false
	}
	method := env.method()
	if method == "initialize" {
		t.initialized = true
		if t.onInitialize != nil {
			t.onInitialize(env.Params)
		}
	}
	if !t.initialized && !beforeInitialize[method] {
		t.reject(string(env.ID), codeInvalidRequest, "the session is not initialized: send initialize first")
		return false
	}
	c := &call{id: idKeyJSON(env.ID), tool: env.tool(t.tools), start: time.Now()}
	t.mu.Lock()
	t.pending[c.id] = append(t.pending[c.id], c)
	t.n++
	t.mu.Unlock()
	return true
}

// reject writes an error response of the transport's own; id is the JSON
// of the request id ("null" when it is unknown).
func (t *transport) reject(id string, code int, message string) {
	msg, _ := json.Marshal(message)
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`+"\n", id, code, msg)
	_, _ = t.w.Write([]byte(line))
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

// gateReader hands input to mcp-go one complete line at a time, judging
// each (admit), discarding lines longer than MaxRequestBytes, and holds the
// end of input back until every tracked request has been answered. What it
// keeps is bounded: the line being read and the lines of one read chunk.
type gateReader struct {
	t     *transport
	ctx   context.Context
	chunk []byte
	line  []byte // the line being read, up to MaxRequestBytes
	over  bool   // the line being read outgrew MaxRequestBytes
	// overID is the id found at the start of the line that outgrew the
	// bound, tail the last tailKeep bytes read of it (see envelope.go).
	overID string
	tail   []byte
	ready  []byte // admitted lines not yet handed on
	off    int    // how much of ready was handed on
	err    error
}

func (g *gateReader) Read(p []byte) (int, error) {
	for g.off == len(g.ready) {
		g.ready, g.off = g.ready[:0], 0
		if cap(g.ready) > 2*readChunk {
			g.ready = nil // do not keep the room of one long line
		}
		if g.err != nil {
			g.t.waitIdle(g.ctx, g.t.drain)
			return 0, g.err
		}
		if g.chunk == nil {
			g.chunk = make([]byte, readChunk)
		}
		n, err := g.t.in.Read(g.chunk)
		g.scan(g.chunk[:n])
		if err != nil {
			g.err = err
			// An unterminated last line goes on as it is (mcp-go ends at
			// end of input without serving it).
			if len(g.line) > 0 && !g.over {
				g.ready = append(g.ready, g.line...)
			}
			g.line = nil
		}
	}
	n := copy(p, g.ready[g.off:])
	g.off += n
	return n, nil
}

// scan splits chunk into lines, admitting each complete one.
func (g *gateReader) scan(chunk []byte) {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		part := chunk
		if i >= 0 {
			part = chunk[:i]
		}
		if !g.over && len(g.line)+len(part) > MaxRequestBytes {
			g.over, g.overID = true, headID(append(g.line, part[:MaxRequestBytes-len(g.line)]...))
			g.line = nil
		}
		if !g.over {
			g.line = append(g.line, part...)
		} else {
			g.keepTail(part)
		}
		if i < 0 {
			return
		}
		if g.over {
			id := g.overID
			if id == "" {
				id = tailIDOf(g.tail)
			}
			if id == "" {
				id = "null"
			}
			g.t.reject(id, codeInvalidRequest, fmt.Sprintf("the request line exceeds %d bytes and was discarded", MaxRequestBytes))
			g.overID, g.tail = "", g.tail[:0]
		} else if g.t.admit(g.line) {
			g.ready = append(append(g.ready, g.line...), '\n')
		}
		if cap(g.line) > readChunk {
			g.line = nil
		}
		g.line, g.over = g.line[:0], false
		chunk = chunk[i+1:]
	}
}

// keepTail keeps the last tailKeep bytes of the discarded line.
func (g *gateReader) keepTail(part []byte) {
	if len(part) >= tailKeep {
		g.tail = append(g.tail[:0], part[len(part)-tailKeep:]...)
		return
	}
	g.tail = append(g.tail, part...)
	if len(g.tail) > tailKeep {
		g.tail = append(g.tail[:0], g.tail[len(g.tail)-tailKeep:]...)
	}
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

// idKey is the canonical form of a JSON-RPC id decoded into any.
func idKey(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// idKeyJSON is the canonical form of the JSON of an id.
func idKeyJSON(raw json.RawMessage) string {
	var v any
	_ = json.Unmarshal(raw, &v)
	return idKey(v)
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
