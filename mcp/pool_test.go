package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/ingest"
	sharedfx "ctx/internal/fixtures"
	"ctx/sources"
)

// TestConcurrentCallsSharePool serves a burst of tool calls in process
// over a real store: mcp-go runs them on several workers at once, all on
// the one pooled Reader (run with -race). Every call succeeds.
func TestConcurrentCallsSharePool(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	sharedfx.Copy(t, filepath.Join(fixturesDir(t), "codex", "sessions"), filepath.Join(home, ".codex", "sessions"))
	store := filepath.Join(root, "store")
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	if _, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: env, Sources: srcs, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	in.WriteString(handshake)
	const n = 80
	for i := range n {
		args := []string{`{"query":"shell"}`, `{"limit":20,"content":"text"}`, `{"query":"test","limit":3}`, `{}`}[i%4]
		tool := []string{"search", "query_events", "search", "status"}[i%4]
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", i, tool, args)
	}
	out, _ := serveBytes(t, store, strings.NewReader(in.String()))
	ids := parseOutput(t, out)
	for i := range n {
		if ids[fmt.Sprint(i)] != 1 {
			t.Fatalf("call %d answered %d times", i, ids[fmt.Sprint(i)])
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				IsError           bool            `json:"isError"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		json.Unmarshal([]byte(line), &r)
		if r.Result.IsError {
			t.Fatalf("call %s failed: %s", r.ID, r.Result.StructuredContent)
		}
	}
}
