package mcp

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/toolsnaps from the current tool definitions")

func testServer(t testing.TB) *Server {
	t.Helper()
	return New(Config{CtxHome: filepath.Join(t.TempDir(), "no-store")})
}

// TestToolSnapshots pins every tool's advertised definition (name,
// description, annotations, input and output schemas). Run with -update
// after an intended change and review the diff.
func TestToolSnapshots(t *testing.T) {
	for _, tool := range testServer(t).Tools() {
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "toolsnaps", tool.Name+".json")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./mcp -run TestToolSnapshots -update)", err)
		}
		if string(got) != string(want) {
			t.Errorf("tool %s changed; if intended, run go test ./mcp -run TestToolSnapshots -update and review:\n%s",
				tool.Name, got)
		}
	}
}

// TestToolMetadata checks what every host relies on: read-only
// annotations set explicitly, a description, object schemas, and an
// output schema that admits the typed error object.
func TestToolMetadata(t *testing.T) {
	tools := testServer(t).Tools()
	if len(tools) != 15 {
		t.Fatalf("%d tools", len(tools))
	}
	writes := map[string]bool{"save_session": true, "ingest_context": true}
	errObj := map[string]any{"error_code": "invalid_request", "message": "m", "details": map[string]any{"limit_bytes": 1}}
	for _, tool := range tools {
		a := tool.Annotations
		if writes[tool.Name] {
			if a.ReadOnlyHint == nil || *a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
				a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("%s: a write tool must say read-only false, destructive false: %+v", tool.Name, a)
			}
		} else if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
			a.IdempotentHint == nil || !*a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations not read-only: %+v", tool.Name, a)
		}
		if len(tool.Description) < 80 || a.Title == "" {
			t.Errorf("%s: description or title missing", tool.Name)
		}
		raw, _ := json.Marshal(tool)
		var wire struct {
			InputSchema  map[string]any `json:"inputSchema"`
			OutputSchema map[string]any `json:"outputSchema"`
		}
		if err := json.Unmarshal(raw, &wire); err != nil {
			t.Fatal(err)
		}
		if wire.InputSchema["type"] != "object" || wire.OutputSchema["type"] != "object" {
			t.Errorf("%s: input and output schemas must be objects", tool.Name)
		}
		if p := bareTrue(wire.OutputSchema, "outputSchema"); p != "" {
			t.Errorf("%s: bare true sub-schema at %s", tool.Name, p)
		}
		if p := bareTrue(wire.InputSchema, "inputSchema"); p != "" {
			t.Errorf("%s: bare true sub-schema at %s", tool.Name, p)
		}
		out := resolveSchema(t, wire.OutputSchema)
		validate(t, out, errObj)
		if out.Validate(map[string]any{"error_code": "made_up", "message": "m"}) == nil {
			t.Errorf("%s: output schema admits an unknown error_code", tool.Name)
		}
		if tool.Name != "blame" && out.Validate(map[string]any{}) == nil {
			t.Errorf("%s: output schema admits an empty object", tool.Name)
		}
	}
}

// bareTrue returns the path of a sub-schema that is the literal true or an
// empty object (both accept anything and some hosts reject the tool list).
func bareTrue(v any, path string) string {
	switch s := v.(type) {
	case bool:
		if s {
			return path
		}
	case map[string]any:
		for k, sub := range s {
			if k == "properties" || k == "$defs" {
				for name, p := range sub.(map[string]any) {
					if isEmptySchema(p) {
						return path + "/" + k + "/" + name
					}
					if got := bareTrue(p, path+"/"+k+"/"+name); got != "" {
						return got
					}
				}
				continue
			}
			if k == "items" || k == "additionalProperties" || k == "not" {
				if k != "not" && isEmptySchema(sub) {
					return path + "/" + k
				}
				if got := bareTrue(sub, path+"/"+k); got != "" {
					return got
				}
			}
			if k == "anyOf" || k == "oneOf" || k == "allOf" {
				for i, p := range sub.([]any) {
					if got := bareTrue(p, path+"/"+k+"/"+strconv.Itoa(i)); got != "" {
						return got
					}
				}
			}
		}
	}
	return ""
}

func isEmptySchema(v any) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if k != "description" {
			return false
		}
	}
	return true
}
