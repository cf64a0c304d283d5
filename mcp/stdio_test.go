package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

const handshake = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// syncBuffer is a bytes.Buffer safe for the server's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveBytes runs an in-process server over input and returns what it
// wrote to stdout and to its log.
func serveBytes(t testing.TB, home string, input io.Reader) (string, string) {
	t.Helper()
	var out, logs syncBuffer
	// The drain bound only keeps a wedged request from holding the process:
	// here it is generous, since a loaded machine is slow, not broken. Dir
	// is no git repository, so that status calls run no git commands.
	s := New(Config{CtxHome: home, Log: &logs, Dir: t.TempDir(), DrainTimeout: 90 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Serve(ctx, input, &out); err != nil {
		t.Fatalf("serve: %v", err)
	}
	return out.String(), logs.String()
}

// rpcLine is a parsed response line.
type rpcLine struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// parseOutput checks that every line is a JSON-RPC response and returns
// them by id.
func parseOutput(t testing.TB, out string) map[string]int {
	t.Helper()
	ids := map[string]int{}
	for _, line := range strings.SplitAfter(out, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasSuffix(line, "\n") {
			t.Fatalf("stdout ends with a partial line: %.200q", line)
		}
		var r rpcLine
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil || r.JSONRPC != "2.0" || (r.Result == nil) == (r.Error == nil) {
			t.Fatalf("stdout line is not a JSON-RPC response (%v): %.300q", err, line)
		}
		ids[string(r.ID)]++
	}
	return ids
}

// TestStdoutPurity feeds well-formed and malformed messages and checks
// that everything on stdout is a JSON-RPC response and that every request
// gets exactly one.
func TestStdoutPurity(t *testing.T) {
	home := filepath.Join(t.TempDir(), "no-store")
	var in strings.Builder
	in.WriteString(handshake)
	var want []string
	toolOf := map[string]string{}
	for i := range 40 {
		tool := []string{"status", "sources", "search", "show_event", "show_session", "query_events", "blame", "nope"}[i%8]
		toolOf[fmt.Sprint(i)] = tool
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"query":"x\u001b[2J<b>"}}}`+"\n", i, tool)
		want = append(want, fmt.Sprint(i))
	}
	for i, bad := range []string{`{bad`, `[1,2]`, `{"jsonrpc":"1.0","id":"v","method":"ping"}`, `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":"oops"}`,
		`{"jsonrpc":"2.0","id":"m","method":"no/such"}`, `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`, "\x00\xff", ``} {
		in.WriteString(bad + "\n")
		_ = i
	}
	want = append(want, `"init"`, `"v"`, `"p"`, `"m"`, `"l"`)
	out, logs := serveBytes(t, home, strings.NewReader(in.String()))
	ids := parseOutput(t, out)
	validateResults(t, out, toolOf)
	for _, id := range want {
		if ids[id] != 1 {
			t.Errorf("id %s answered %d times", id, ids[id])
		}
	}
	if strings.Contains(logs, "unanswered") {
		t.Errorf("log: %s", logs)
	}
}

// validateResults checks every tool result on stdout against the output
// schema of the tool its id called.
func validateResults(t *testing.T, out string, toolOf map[string]string) {
	t.Helper()
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range testServer(t).Tools() {
		raw, _ := json.Marshal(tool)
		var wire struct {
			OutputSchema map[string]any `json:"outputSchema"`
		}
		json.Unmarshal(raw, &wire)
		schemas[tool.Name] = resolveSchema(t, wire.OutputSchema)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				StructuredContent any `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &r) != nil || r.Result.StructuredContent == nil {
			continue
		}
		if s := schemas[toolOf[string(r.ID)]]; s == nil || s.Validate(r.Result.StructuredContent) != nil {
			t.Errorf("structuredContent does not match its tool's output schema: %.300s", line)
		}
	}
}

// TestDrainAtEOF sends many calls and closes the input at once: every one
// is answered before the server returns.
func TestDrainAtEOF(t *testing.T) {
	home := filepath.Join(t.TempDir(), "no-store")
	for round := range 5 {
		var in strings.Builder
		in.WriteString(handshake)
		const n = 150
		for i := range n {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"status"}}`+"\n", i)
		}
		out, _ := serveBytes(t, home, strings.NewReader(in.String()))
		ids := parseOutput(t, out)
		for i := range n {
			if ids[fmt.Sprint(i)] != 1 {
				t.Fatalf("round %d: call %d answered %d times (%d responses)", round, i, ids[fmt.Sprint(i)], len(ids))
			}
		}
	}
}

// FuzzStdio feeds arbitrary bytes after a valid handshake: the server
// must not panic, must write only JSON-RPC responses, and must answer
// every request it reads before it ends.
func FuzzStdio(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","limit":0}}}` + "\n",
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"show_session","arguments":{"ctx_session_id":"ses_00000000000000000000000000000000","cursor":"AAAA"}}}` + "\n",
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n",
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n",
		"{bad\n\x00\n[]\n",
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"query_events","arguments":{"limit":"x"}}}`,
	} {
		f.Add([]byte(seed))
	}
	home := filepath.Join(f.TempDir(), "no-store")
	f.Fuzz(func(t *testing.T, data []byte) {
		in := io.MultiReader(strings.NewReader(handshake), bytes.NewReader(data))
		out, logs := serveBytes(t, home, in)
		parseOutput(t, out)
		if strings.Contains(logs, "unanswered") || strings.Contains(logs, "panic") {
			t.Fatalf("log: %s", logs)
		}
	})
}
