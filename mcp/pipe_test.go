package mcp

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawPipe drives the built binary through a plain pipe: a burst of calls
// over real history and malformed lines, then end of input. Every line on
// stdout must be a JSON-RPC response, every request must be answered, and
// the process must exit by itself.
func rawPipe(t *testing.T, w *world) {
	var in strings.Builder
	in.WriteString(handshake)
	const n = 60
	for i := range n {
		args := []string{`{"query":"test"}`, `{"query":"shell","content_scope":"calls"}`, `{"content":"full","limit":50}`}[i%3]
		tool := []string{"search", "search", "query_events"}[i%3]
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", i, tool, args)
	}
	in.WriteString("{bad\n" + `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"show_session","arguments":{"ctx_session_id":"ses_x"}}}` + "\n")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.bin, "mcp", "serve")
	cmd.Env = w.env()
	var out, errOut bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(in.String()), &out, &errOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("ctx mcp serve: %v\n%s", err, errOut.String())
	}
	t.Logf("%d calls answered and exited in %v", n, time.Since(start))
	ids := parseOutput(t, out.String())
	for i := range n {
		if ids[fmt.Sprint(i)] != 1 {
			t.Fatalf("call %d answered %d times", i, ids[fmt.Sprint(i)])
		}
	}
	if ids[`"x"`] != 1 || ids[`"init"`] != 1 {
		t.Fatalf("answers: %v", ids)
	}
}

// BenchmarkSearchOverStdio measures search over stdio against a warm
// server on the fixture store, through the official Go SDK client:
//
//	go test ./mcp -run '^$' -bench SearchOverStdio -benchtime 300x
func BenchmarkSearchOverStdio(b *testing.B) {
	w := newWorld(b, "")
	ctx := context.Background()
	cs := w.connect(b, ctx, ProtocolVersions[0])
	defer cs.Close()
	queries := []string{"test", "shell command", "type checking", "review comments", "worktree"}
	for range 20 { // warm up
		search(b, ctx, cs, queries[0])
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		search(b, ctx, cs, queries[i%len(queries)])
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

func search(b *testing.B, ctx context.Context, cs *sdk.ClientSession, q string) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": q}})
	if err != nil || res.IsError {
		b.Fatalf("search: %v %v", err, res)
	}
}
