package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP starts ctx mcp serve --http on a free loopback port and returns
// the endpoint.
func (w *handoffWorld) serveHTTP(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(w.bin, "mcp", "serve", "--http", "127.0.0.1:0", "--root", w.root)
	cmd.Env = w.env()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`serving (http://\S+/mcp)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return m[1]
		}
	}
	t.Fatal("ctx mcp serve --http printed no address")
	return ""
}

// token creates a token with ctx tokens create and returns its secret and id.
func (w *handoffWorld) token(t *testing.T, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(w.bin, append([]string{"tokens", "create", "--format", "json"}, args...)...)
	cmd.Env = w.env()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tokens create: %v", err)
	}
	var tok struct{ Token, ID string }
	if err := json.Unmarshal(out, &tok); err != nil {
		t.Fatal(err)
	}
	return tok.Token, tok.ID
}

type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func httpConnect(t *testing.T, endpoint, token, name string) (*client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint,
		HTTPClient: &http.Client{Transport: bearerRT{token}}, MaxRetries: -1}, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return newClient(t, ctx, cs), nil
}

// TestHTTPDoor drives the HTTP door with the official Go SDK over
// Streamable HTTP with tokens of each scope, a revoked and an expired one.
func TestHTTPDoor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the ctx binary")
	}
	w := newHandoffWorld(t)
	both, bothID := w.token(t, "--name", "both")
	read, _ := w.token(t, "--scope", "read:context")
	write, _ := w.token(t, "--scope", "write:sessions")
	revoked, _ := w.token(t, "--name", "gone")
	expired, _ := w.token(t, "--expires", "1s")
	rv := exec.Command(w.bin, "tokens", "revoke", "gone")
	rv.Env = w.env()
	if out, err := rv.CombinedOutput(); err != nil {
		t.Fatalf("revoke: %v %s", err, out)
	}
	endpoint := w.serveHTTP(t)

	full, err := httpConnect(t, endpoint, both, "cursor")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"continue_thread", "get_context", "ingest_context", "list_threads", "save_session"}
	if got := full.tools(); !slices.Equal(got, want) {
		t.Fatalf("HTTP tools %v, want exactly %v", got, want)
	}
	saved := full.ok("save_session", map[string]any{"summary": "over http", "thread": "remote", "token": "forged"})
	prov := saved["provenance"].(map[string]any)
	if prov["door"] != "mcp-http" || prov["harness"] != "cursor" || prov["token"] != bothID {
		t.Fatalf("provenance = %v", prov)
	}
	if o := full.ok("get_context", map[string]any{"scope": "plan"}); o["meta"].(map[string]any)["root"] != w.root {
		t.Fatalf("context = %v", o["meta"])
	}

	ro, err := httpConnect(t, endpoint, read, "zed")
	if err != nil {
		t.Fatal(err)
	}
	refused, isErr := ro.call("save_session", map[string]any{"summary": "x"})
	if !isErr || refused["error_code"] != "insufficient_scope" ||
		refused["details"].(map[string]any)["required_scope"] != "write:sessions" {
		t.Fatalf("read token wrote: %v", refused)
	}
	if th := ro.ok("list_threads", nil)["threads"].([]any); len(th) != 1 {
		t.Fatalf("threads = %v", th)
	}
	if _, err := ro.cs.ReadResource(ro.ctx, &sdk.ReadResourceParams{URI: "context://plan"}); err != nil {
		t.Fatalf("read token resource: %v", err)
	}

	wo, err := httpConnect(t, endpoint, write, "windsurf")
	if err != nil {
		t.Fatal(err)
	}
	if obj, isErr := wo.call("get_context", nil); !isErr || obj["error_code"] != "insufficient_scope" {
		t.Fatalf("write token read: %v", obj)
	}
	wo.ok("ingest_context", map[string]any{"ctxfile_ingest_schema": "2", "source": map[string]any{"harness": "aider"},
		"session": map[string]any{"summary": "pushed"}})

	time.Sleep(1100 * time.Millisecond) // let the 1s token expire
	for name, tok := range map[string]string{"revoked": revoked, "expired": expired, "unknown": "ctx_nope", "none": ""} {
		if _, err := httpConnect(t, endpoint, tok, "x"); err == nil {
			t.Errorf("%s token connected", name)
		}
	}
	rawRefusals(t, endpoint, both, read, full.cs.ID())
}

// rawRefusals checks what the SDK cannot send: a foreign Origin, and a
// session id used with another token.
func rawRefusals(t *testing.T, endpoint, owner, other, sid string) {
	post := func(token, origin, session string) int {
		code, _ := postBody(t, endpoint, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, token, origin, session)
		return code
	}
	if code := post(owner, "http://evil.example", sid); code != http.StatusForbidden {
		t.Errorf("foreign Origin: %d", code)
	}
	if code := post(other, "", sid); code != http.StatusForbidden {
		t.Errorf("session of another token: %d", code)
	}
	if code := post(owner, "http://localhost:3000", sid); code != http.StatusOK {
		t.Errorf("owner on its session: %d", code)
	}
	// The envelope rules hold over HTTP too: an id that is neither a string
	// nor an integer is not executed.
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`:                          `{"code":-32600`,
		`{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":5}}`: `{"code":-32602`,
	} {
		code, got := postBody(t, endpoint, body, owner, "", sid)
		if code != http.StatusOK || !strings.Contains(got, want) || strings.Contains(got, "Go struct") {
			t.Errorf("%s over HTTP: %d %s", body, code, got)
		}
	}
}

// postBody POSTs one JSON-RPC body to the HTTP door and returns the status
// and the body of the answer.
func postBody(t *testing.T, endpoint, body, token, origin, session string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(got)
}
