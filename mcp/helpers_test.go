package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	sharedfx "ctx/internal/fixtures"
)

// fixturesDir finds shared/fixtures/agents above the test directory.
func fixturesDir(t testing.TB) string {
	t.Helper()
	return sharedfx.Dir(t)
}

// buildCtx builds ctx and, beside it, ctx-core (which the ctx front runs)
// and ctx-mcp (which ctx mcp serve runs) into dir, and returns the path of
// ctx.
func buildCtx(t testing.TB, dir string) string {
	t.Helper()
	for _, name := range []string{"ctx", "ctx-core", "ctx-mcp"} {
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), "ctx/cmd/"+name).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
	}
	return filepath.Join(dir, "ctx")
}

// world is a scratch machine: a home with agent history and a store.
type world struct {
	bin, home, store string
}

// env is the complete environment of ctx in the world.
func (w *world) env() []string {
	return []string{"HOME=" + w.home, "CTX_HOME=" + w.store, "PATH=" + os.Getenv("PATH"), "TZ=UTC", "CTX_DAEMON=off"}
}

// ctx runs a ctx command in the world and returns its stdout.
func (w *world) ctx(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command(w.bin, args...)
	cmd.Env = w.env()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ctx %v: %v", args, err)
	}
	return string(out)
}

// newWorld builds ctx and imports the real Claude Code fixtures (all
// projects but held back) and the Codex fixtures under the configured
// root Backup of group archive.
func newWorld(t testing.TB, heldBack string) *world {
	t.Helper()
	fx := fixturesDir(t)
	dir := t.TempDir()
	w := &world{bin: buildCtx(t, dir), home: filepath.Join(dir, "home"), store: filepath.Join(dir, "store")}
	projects := filepath.Join(fx, "claude-code", "projects")
	entries, err := os.ReadDir(projects)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != heldBack {
			sharedfx.Copy(t, filepath.Join(projects, e.Name()), filepath.Join(w.home, ".claude", "projects", e.Name()))
		}
	}
	sharedfx.Copy(t, filepath.Join(fx, "codex", "sessions"), filepath.Join(w.home, "backup", "codex", "sessions"))
	config := "[[source]]\nroot = \"Backup\"\ngroup = \"archive\"\nprovider = \"codex\"\npath = \"~/backup/codex\"\n"
	if err := os.MkdirAll(filepath.Join(w.home, ".config", "ctx"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.home, ".config", "ctx", "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ctx(t, "import")
	return w
}

// connect starts ctx mcp serve in the world and connects the official Go
// SDK client at the protocol version ("" lets the client probe with
// server/discover first).
func (w *world) connect(t testing.TB, ctx context.Context, version string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(w.bin, "mcp", "serve")
	cmd.Env = w.env()
	client := sdk.NewClient(&sdk.Implementation{Name: "ctx-e2e", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second},
		&sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect at %q: %v", version, err)
	}
	return cs
}

// resolveSchema resolves an advertised schema for validation.
func resolveSchema(t testing.TB, schema any) *jsonschema.Resolved {
	t.Helper()
	raw, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("schema: %v", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve schema: %v", err)
	}
	return r
}

// validate checks a structuredContent value against a resolved schema.
func validate(t testing.TB, r *jsonschema.Resolved, v any) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var inst any
	if err := json.Unmarshal(raw, &inst); err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(inst); err != nil {
		t.Fatalf("structuredContent does not match the output schema: %v\n%.2000s", err, raw)
	}
}
