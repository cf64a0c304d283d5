package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"ctx/index"
)

// gitRepo makes a real repository with one commit, ctx's hooks installed
// and one ctx note, and returns its directory.
func gitRepo(t *testing.T, w *world) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=ctx test", "-c", "user.email=test@example.invalid"}, args...)...)
		cmd.Dir, cmd.Env = dir, w.env()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "first")
	git("notes", "--ref", "refs/notes/ctx", "add", "-m", "{}", "HEAD")
	w.ctx(t, "hooks", "install", "--repo", dir) // after the commit: the hook would import
	return dir
}

// statusIn runs ctx mcp serve in dir and returns the status tool's
// structuredContent, and ctx status --format json run in the same
// directory right after.
func statusIn(t *testing.T, w *world, dir string) (mcpOut, cliOut map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(w.bin, "mcp", "serve")
	cmd.Env, cmd.Dir = w.env(), dir
	client := sdk.NewClient(&sdk.Implementation{Name: "ctx-status", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "status"})
	if err != nil || res.IsError {
		t.Fatalf("status: %v %v", err, res)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "status" {
			validate(t, resolveSchema(t, tool.OutputSchema), res.StructuredContent)
		}
	}
	cs.Close()
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &mcpOut); err != nil {
		t.Fatal(err)
	}
	cli := exec.Command(w.bin, "status", "--format", "json")
	cli.Env, cli.Dir = w.env(), dir
	out, err := cli.Output()
	if err != nil {
		t.Fatalf("ctx status: %v", err)
	}
	if err := json.Unmarshal(out, &cliOut); err != nil {
		t.Fatal(err)
	}
	return mcpOut, cliOut
}

// statusReadModel: the MCP status tool returns exactly what ctx status
// --format json prints, with the history report, upgrade state, semantic
// state, the schema-3 attribution observation of the repository the
// server runs in, local_usage and read_only.
func statusReadModel(t *testing.T, w *world) {
	repo := gitRepo(t, w)
	got, cli := statusIn(t, w, repo)
	// The MCP call itself is counted once its response is out, so the
	// usage aggregate may exist for the CLI run that follows and not yet
	// for the MCP read: the state may differ from empty to recording.
	if st := got["local_usage"].(map[string]any)["state"]; st == "empty" {
		cli["local_usage"].(map[string]any)["state"] = "empty"
	}
	if !reflect.DeepEqual(got, cli) {
		a, _ := json.MarshalIndent(got, "", " ")
		b, _ := json.MarshalIndent(cli, "", " ")
		t.Fatalf("MCP status differs from ctx status --format json:\nMCP %s\nCLI %s", a, b)
	}
	if got["read_only"] != true || got["generation"] == nil {
		t.Fatalf("status: %v", got)
	}
	up := got["upgrade"].(map[string]any)
	if up["store_format"] != 1.0 || up["index_format"] != float64(index.Format) || up["vector_format"] != 1.0 ||
		len(up["pending_rebuilds"].([]any)) != 0 {
		t.Fatalf("upgrade: %v", up)
	}
	if sem := got["semantic"].(map[string]any); sem["state"] != "built" || sem["vectors"].(float64) == 0 || sem["embedder"] == "" {
		t.Fatalf("semantic: %v", sem)
	}
	a := got["attribution"].(map[string]any)
	hooks, _ := a["hooks"].(map[string]any)
	notes, _ := a["notes"].(map[string]any)
	if a["schema"] != 3.0 || a["in_repository"] != true || hooks == nil || hooks["installed"] != true ||
		notes == nil || notes["exists"] != true || notes["count"] != 1.0 || notes["ref"] != "refs/notes/ctx" {
		t.Fatalf("attribution in a repository with hooks and one note: %v", a)
	}
	if lu := got["local_usage"].(map[string]any); lu["definition_version"] != 1.0 || lu["state"] == nil {
		t.Fatalf("local_usage: %v", lu)
	}

	w.ctx(t, "hooks", "remove", "--repo", repo)
	got, _ = statusIn(t, w, repo)
	if h := got["attribution"].(map[string]any)["hooks"].(map[string]any); h["installed"] != false {
		t.Fatalf("hooks removed but reported installed: %v", h)
	}

	outside := t.TempDir()
	got, cli = statusIn(t, w, outside)
	a = got["attribution"].(map[string]any)
	if a["in_repository"] != false || a["hooks"] != nil || a["notes"] != nil || a["schema"] != 3.0 {
		t.Fatalf("attribution outside a repository: %v", a)
	}
	if !reflect.DeepEqual(got["attribution"], cli["attribution"]) {
		t.Fatalf("attribution outside a repository differs: MCP %v, CLI %v", got["attribution"], cli["attribution"])
	}
}
