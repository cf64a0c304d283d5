package mcp

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHTTPDoorUsage: tool calls over the HTTP door are counted like those
// over stdio (spec 000: recognized tools/call requests once their answer is
// written), with the bytes of each answer as delivered; handshakes, tool
// listings, unknown tools and refused envelopes are not counted.
func TestHTTPDoorUsage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the ctx binary")
	}
	w := newHandoffWorld(t)
	both, _ := w.token(t, "--name", "both")
	read, _ := w.token(t, "--scope", "read:context")
	endpoint := w.serveHTTP(t)

	full, err := httpConnect(t, endpoint, both, "cursor")
	if err != nil {
		t.Fatal(err)
	}
	full.ok("get_context", map[string]any{"scope": "plan"})
	ro, err := httpConnect(t, endpoint, read, "zed")
	if err != nil {
		t.Fatal(err)
	}
	if _, isErr := ro.call("save_session", map[string]any{"summary": "x"}); !isErr {
		t.Fatal("a read token saved a session")
	}

	sid := full.cs.ID()
	var listBytes int64
	for _, id := range []string{`"l1"`, `7`} {
		code, body := postBody(t, endpoint, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"list_threads"}}`, both, "", sid)
		if code != http.StatusOK || !strings.Contains(body, `"result"`) {
			t.Fatalf("list_threads over HTTP: %d %s", code, body)
		}
		listBytes += int64(len(body))
	}
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":"t","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"no_such_tool"}}`,
		`{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{"name":"list_threads"}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"list_threads"}}`,
	} {
		postBody(t, endpoint, body, both, "", sid)
	}

	deadline := time.Now().Add(30 * time.Second)
	for {
		agg, err := readUsage(w.store)
		if err == nil && agg.Tools["list_threads"] != nil && agg.Tools["list_threads"].Calls >= 2 &&
			agg.Tools["get_context"] != nil && agg.Tools["save_session"] != nil {
			if len(agg.Tools) != 3 {
				t.Fatalf("tools counted: %v (only recognized tools/call requests count)", agg.Tools)
			}
			lt, gc, ss := agg.Tools["list_threads"], agg.Tools["get_context"], agg.Tools["save_session"]
			if lt.Calls != 2 || lt.OK != 2 || lt.MCPResponseBytes != listBytes {
				t.Fatalf("list_threads %+v, want 2 ok calls of %d bytes", lt, listBytes)
			}
			if gc.Calls != 1 || gc.OK != 1 || gc.MCPResponseBytes == 0 {
				t.Fatalf("get_context %+v", gc)
			}
			if ss.Calls != 1 || ss.ToolErrors != 1 {
				t.Fatalf("save_session refused by scope %+v, want one tool error", ss)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("usage.json after HTTP calls: %+v, %v", agg, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
