package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// badInput drives the built binary with raw JSON-RPC lines over stdio:
// each kind of bad input gets its typed answer and the server keeps
// serving; a 100 MB line is discarded without being held in memory.
func badInput(t *testing.T, w *world) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
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
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	out := bufio.NewReaderSize(stdout, 1<<20)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	// next reads one response line (responses to pipelined requests may
	// come in any order, so each step waits for its own).
	next := func() rpcLine {
		t.Helper()
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("read: %v (stderr %s)", err, stderr.String())
		}
		var r rpcLine
		if err := json.Unmarshal(line, &r); err != nil || r.JSONRPC != "2.0" {
			t.Fatalf("not a JSON-RPC response: %v %.300q", err, line)
		}
		return r
	}
	call := func(line string) rpcLine {
		t.Helper()
		send(line)
		return next()
	}
	wantError := func(r rpcLine, id string, code int) {
		t.Helper()
		if string(r.ID) != id || r.Error == nil || r.Error.Code != code {
			t.Fatalf("want error %d for id %s, got id %s error %+v result %.200s", code, id, r.ID, r.Error, r.Result)
		}
	}

	// A tools/call before initialize is refused, and initialize still works.
	wantError(call(`{"jsonrpc":"2.0","id":"pre","method":"tools/call","params":{"name":"status"}}`), `"pre"`, -32600)
	wantError(call(`{"jsonrpc":"2.0","id":"pre-list","method":"tools/list"}`), `"pre-list"`, -32600)
	if r := call(strings.SplitN(handshake, "\n", 2)[0]); string(r.ID) != `"init"` || r.Error != nil {
		t.Fatalf("initialize after a refused call: %+v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	// Unknown method and unknown tool: protocol errors with their ids.
	wantError(call(`{"jsonrpc":"2.0","id":1,"method":"no/such/method"}`), "1", -32601)
	wantError(call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`), "2", -32602)

	// 10,000-deep nesting: a parse error, id null.
	deep := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","n":` +
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}}}`
	wantError(call(deep), "null", -32700)

	// Invalid UTF-8 inside a string: decoded with replacement characters
	// and answered as an ordinary search.
	r := call("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":{\"query\":\"test \xff\xfe\xc0\"}}}")
	if string(r.ID) != "4" || r.Error != nil || !json.Valid(r.Result) {
		t.Fatalf("invalid UTF-8: %+v", r)
	}
	var res struct {
		IsError bool `json:"isError"`
	}
	json.Unmarshal(r.Result, &res)
	if res.IsError {
		t.Fatalf("a query with invalid UTF-8 must still search: %s", r.Result)
	}

	// A 100 MB line, streamed: one invalid-request answer with its id
	// (read from the line's start), then the next request is served. The
	// server must not have held it.
	go func() {
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"`)
		for range 100 {
			if _, err := stdin.Write(chunk); err != nil {
				return
			}
		}
		io.WriteString(stdin, "\"}}}\n"+`{"jsonrpc":"2.0","id":"after","method":"ping"}`+"\n")
	}()
	r = next()
	wantError(r, "5", -32600)
	if !strings.Contains(r.Error.Message, fmt.Sprint(MaxRequestBytes)) {
		t.Fatalf("the size error must say the limit: %q", r.Error.Message)
	}
	if r := next(); string(r.ID) != `"after"` || r.Error != nil {
		t.Fatalf("the request after a 100 MB line: %+v", r)
	}
	if kib := peakRSSKiB(t, cmd.Process.Pid); kib > 96<<10 {
		t.Fatalf("the server peaked at %d MiB reading a 100 MB line: it buffered it", kib>>10)
	}

	// The server still answers tools after all of it.
	if r := call(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"status"}}`); string(r.ID) != "6" || r.Error != nil {
		t.Fatalf("status after bad input: %+v", r)
	}
	stdin.Close()
	if rest, _ := io.ReadAll(out); len(bytes.TrimSpace(rest)) != 0 {
		t.Fatalf("unexpected output at the end: %.300q", rest)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ctx mcp serve: %v\n%s", err, stderr.String())
	}
}

// peakRSSKiB is the peak resident set (VmHWM) of a process.
func peakRSSKiB(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		var kib int
		if n, _ := fmt.Sscanf(line, "VmHWM: %d kB", &kib); n == 1 {
			return kib
		}
	}
	t.Fatal("no VmHWM")
	return 0
}
