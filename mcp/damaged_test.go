package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"ctx/store"
)

// TestSearchAroundDamagedShard: with one shard of a real store cut in
// half, the search tool answers from the other shards: its metadata names
// the damaged shard and the repair, its text warns, and show_event still
// reads an event from the store.
func TestSearchAroundDamagedShard(t *testing.T) {
	w := newWorld(t, "")
	root := store.At(w.store).Index()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var shard string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			shard = e.Name()
			break
		}
	}
	p := filepath.Join(root, shard, "store", "root.bolt")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	e := connectE2E(t, w, "")
	res, err := e.cs.CallTool(e.ctx, &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": "test", "limit": 5}})
	if err != nil || res.IsError {
		t.Fatalf("search with a damaged shard: %v %v", err, res)
	}
	validate(t, e.schemas["search"], res.StructuredContent)
	md := res.StructuredContent.(map[string]any)["metadata"].(map[string]any)
	partial, _ := md["partial"].(map[string]any)
	if partial == nil || partial["reason"] != "damaged_shard" || partial["repair"] != "ctx verify --repair" {
		t.Fatalf("metadata.partial = %v", md["partial"])
	}
	if d, _ := partial["damaged_shards"].([]any); len(d) != 1 || d[0] != shard {
		t.Fatalf("damaged_shards = %v, want [%s]", partial["damaged_shards"], shard)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !strings.Contains(text, "Warning: partial results:") || !strings.Contains(text, shard) {
		t.Fatalf("the text does not warn:\n%s", text)
	}
	if hits := res.StructuredContent.(map[string]any)["results"].([]any); len(hits) > 0 {
		e.ok("show_event", map[string]any{"ctx_event_id": hits[0].(map[string]any)["ctx_event_id"]})
	}
}
