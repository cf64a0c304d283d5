package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// handoffWorld is a scratch machine with an empty store and a git
// workspace, for the spec 001 surface.
type handoffWorld struct {
	bin, home, store, root string
}

func newHandoffWorld(t *testing.T) *handoffWorld {
	t.Helper()
	dir := t.TempDir()
	w := &handoffWorld{bin: buildCtx(t, dir), home: filepath.Join(dir, "home"), store: filepath.Join(dir, "store"),
		root: filepath.Join(dir, "repo")}
	for _, d := range []string{w.home, w.root} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(w.root, "PLAN.md"), []byte("# The Plan\n\n1. tokens\n"), 0o600)
	os.WriteFile(filepath.Join(w.root, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o600)
	git := exec.Command("git", "init", "-q", "-b", "main", w.root)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return w
}

func (w *handoffWorld) env() []string {
	return []string{"HOME=" + w.home, "CTX_HOME=" + w.store, "PATH=" + os.Getenv("PATH"), "TZ=UTC", "CTX_DAEMON=off",
		"GIT_CONFIG_GLOBAL=/dev/null"}
}

// client is one MCP client connected to its own ctx mcp serve over stdio,
// named as a real client is in its initialize clientInfo.
type client struct {
	t       *testing.T
	ctx     context.Context
	cs      *sdk.ClientSession
	schemas map[string]*jsonschema.Resolved
}

func (w *handoffWorld) connect(t *testing.T, name string, roots ...string) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := exec.Command(w.bin, "mcp", "serve")
	cmd.Env, cmd.Dir = w.env(), w.home
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, nil)
	for _, r := range roots {
		c.AddRoots(&sdk.Root{URI: "file://" + r, Name: "workspace"})
	}
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", name, err)
	}
	t.Cleanup(func() { cs.Close() })
	return newClient(t, ctx, cs)
}

func newClient(t *testing.T, ctx context.Context, cs *sdk.ClientSession) *client {
	cl := &client{t: t, ctx: ctx, cs: cs, schemas: map[string]*jsonschema.Resolved{}}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, tool := range tools.Tools {
		cl.schemas[tool.Name] = resolveSchema(t, tool.OutputSchema)
	}
	return cl
}

func (c *client) tools() []string {
	var names []string
	for n := range c.schemas {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// call calls a tool, validates its structuredContent against the tool's
// output schema and returns it.
func (c *client) call(name string, args any) (map[string]any, bool) {
	c.t.Helper()
	res, err := c.cs.CallTool(c.ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	validate(c.t, c.schemas[name], res.StructuredContent)
	obj, _ := res.StructuredContent.(map[string]any)
	return obj, res.IsError
}

func (c *client) ok(name string, args any) map[string]any {
	c.t.Helper()
	obj, isErr := c.call(name, args)
	if isErr {
		c.t.Fatalf("%s: %v", name, obj)
	}
	return obj
}

// TestHandoffRoundTrip: client A, named as Claude Code, saves a handoff
// (first incomplete, then fixed from the errors alone); client B, named as
// Codex, continues the thread and receives A's package with A's provenance.
func TestHandoffRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the ctx binary")
	}
	w := newHandoffWorld(t)
	a := w.connect(t, "claude-code", w.root)
	want := []string{"blame", "continue_thread", "get_context", "ingest_context", "list_sessions", "list_threads", "query_events",
		"save_session", "search", "show_event", "show_session", "sources", "stats", "status", "timeline"}
	if got := a.tools(); !slices.Equal(got, want) {
		t.Fatalf("stdio tools %v, want %v", got, want)
	}
	call := map[string]any{"summary": "Moved the HTTP door to hashed bearer tokens", "thread": "Auth Refactor",
		"handoff": true, "key_decisions": []any{map[string]any{"decision": "store SHA-256 only"}},
		"door": "mcp-http"}
	obj, isErr := a.call("save_session", call)
	if !isErr || obj["error_code"] != "invalid_request" {
		t.Fatalf("incomplete handoff accepted: %v", obj)
	}
	// The agent fixes exactly what the errors name.
	fixes := map[string]func(){
		"state": func() { call["state"] = "tokens done; CLI missing" },
		"key_decisions[0].rationale": func() {
			call["key_decisions"] = []any{map[string]any{"decision": "store SHA-256 only", "rationale": "a leaked file leaks nothing"}}
		},
		"open_items": func() { call["open_items"] = []any{"ctx tokens list", "docs"} },
		"gotchas":    func() { call["gotchas"] = []any{"revocation applies per request"} },
		"artifacts": func() {
			call["artifacts"] = []any{map[string]any{"path": "bearer/bearer.go", "role": "implementation"}}
		},
		"suggested_first_prompt": func() { call["suggested_first_prompt"] = "Add ctx tokens list with --format json" },
	}
	for _, e := range obj["details"].(map[string]any)["errors"].([]any) {
		field := e.(map[string]any)["field"].(string)
		fix, ok := fixes[field]
		if !ok {
			t.Fatalf("unexpected error for %s: %v", field, e)
		}
		fix()
	}
	saved := a.ok("save_session", call)
	prov := saved["provenance"].(map[string]any)
	if prov["harness"] != "claude-code" || prov["door"] != "mcp-stdio" || saved["thread_created"] != true ||
		!slices.Contains(anyStrings(saved["ignored_fields"]), "door") {
		t.Fatalf("saved = %v", saved)
	}
	if fi, err := os.Stat(filepath.Join(w.store, "inbox", "reported.jsonl")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("inbox: %v %v", fi, err)
	}

	b := w.connect(t, "codex-mcp-client")
	cont := b.ok("continue_thread", map[string]any{"thread": "auth refactr"})
	if cont["thread"] != "Auth Refactor" || cont["match"] != "fuzzy" || cont["assumed"] != true {
		t.Fatalf("continue = %v", cont)
	}
	h := cont["handoff"].(map[string]any)
	from := h["from"].(map[string]any)
	pkg := h["package"].(map[string]any)
	if from["harness"] != "claude-code" || from["door"] != "mcp-stdio" || from["client"].(map[string]any)["name"] != "claude-code" ||
		pkg["suggested_first_prompt"] != "Add ctx tokens list with --format json" {
		t.Fatalf("handoff = %v", h)
	}
	entries := cont["entries"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["harness"] != "claude-code" || !strings.Contains(cont["untrusted"].(string), "Untrusted") {
		t.Fatalf("entries = %v", entries)
	}
	threads := b.ok("list_threads", nil)["threads"].([]any)
	if len(threads) != 1 || threads[0].(map[string]any)["last_surface"].(map[string]any)["harness"] != "claude-code" {
		t.Fatalf("threads = %v", threads)
	}
	// B saves too: its harness is Codex's.
	bs := b.ok("save_session", map[string]any{"summary": "added ctx tokens list", "thread": "auth refactor"})
	if bs["provenance"].(map[string]any)["harness"] != "codex" || bs["thread"] != "Auth Refactor" {
		t.Fatalf("b saved = %v", bs)
	}
	contextSurface(t, a, w, saved["ctx_session_id"].(string))
}

// contextSurface checks get_context, the resources and the prompts over
// client A's root.
func contextSurface(t *testing.T, a *client, w *handoffWorld, savedID string) {
	o := a.ok("get_context", nil)
	meta := o["meta"].(map[string]any)
	if meta["root"] != w.root || o["plan"] == nil || !strings.Contains(o["plan"].(string), "The Plan") {
		t.Fatalf("context meta = %v plan = %v", meta, o["plan"])
	}
	sessions := o["sessions"].([]any)
	if len(sessions) == 0 || sessions[0].(map[string]any)["ctx_session_id"] != savedID {
		t.Fatalf("sessions (read-your-writes) = %v", sessions)
	}
	if _, isErr := a.call("get_context", map[string]any{"scope": "everything"}); !isErr {
		t.Fatal("bad scope accepted")
	}
	res, err := a.cs.ReadResource(a.ctx, &sdk.ReadResourceParams{URI: "context://git"})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("context://git: %v %v", res, err)
	}
	var git map[string]any
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &git); err != nil || git["gitState"] == nil || git["plan"] != nil {
		t.Fatalf("git resource = %s", res.Contents[0].Text)
	}
	p, err := a.cs.GetPrompt(a.ctx, &sdk.GetPromptParams{Name: "load-context"})
	if err != nil || len(p.Messages) != 1 || p.Messages[0].Role != "user" ||
		!strings.HasPrefix(p.Messages[0].Content.(*sdk.TextContent).Text, "Untrusted data") {
		t.Fatalf("load-context = %+v %v", p, err)
	}
	p, err = a.cs.GetPrompt(a.ctx, &sdk.GetPromptParams{Name: "ctx-continue", Arguments: map[string]string{"thread": "billing"}})
	if err != nil || !strings.Contains(p.Messages[0].Content.(*sdk.TextContent).Text, `continue_thread tool of ctx with thread "billing"`) {
		t.Fatalf("ctx-continue = %+v %v", p, err)
	}
	bad, isErr := a.call("ingest_context", map[string]any{"ctxfile_ingest_schema": "1", "session": map[string]any{}})
	if !isErr || len(bad["details"].(map[string]any)["errors"].([]any)) < 3 {
		t.Fatalf("bad ingest = %v", bad)
	}
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
