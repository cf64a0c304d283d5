package query

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/ingest"
	sharedfx "ctx/internal/fixtures"
	"ctx/sources"
	"ctx/store"
)

// cutShard cuts a shard's root.bolt in half, as a torn write would.
func cutShard(t *testing.T, home, shard string) {
	t.Helper()
	p := filepath.Join(store.At(home).Index(), shard, "store", "root.bolt")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
}

// twoImports imports the Claude Code fixtures, then the Codex ones, into
// a new store under root, merging nothing: its generation has the shards
// of both imports.
func twoImports(t *testing.T, root string) string {
	t.Helper()
	fx := fixturesDir(t)
	home := filepath.Join(root, "home")
	st := filepath.Join(root, "store")
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	sharedfx.Copy(t, filepath.Join(fx, "claude-code", "projects"), filepath.Join(home, ".claude", "projects"))
	for i := 0; i < 2; i++ {
		if _, err := ingest.Run(context.Background(), ingest.Options{Home: st, Env: env, Sources: srcs, Version: "test",
			Deferred: true}); err != nil {
			t.Fatal(err)
		}
		sharedfx.Copy(t, filepath.Join(fx, "codex", "sessions"), filepath.Join(home, ".codex", "sessions"))
	}
	return st
}

// TestSearchAroundDamagedShard cuts one shard of a real store: search
// answers from the other shards, says in its metadata which shard it left
// out and how to repair it, and the events only the damaged shard
// indexed are still shown, by id and by prefix, from the store.
func TestSearchAroundDamagedShard(t *testing.T) {
	home := twoImports(t, t.TempDir())
	before := openReader(t, home)
	gen, _ := before.Generation()
	if len(gen.Shards) < 2 {
		t.Fatalf("the fixture store has %d shards, want at least 2", len(gen.Shards))
	}
	req := SearchRequest{Query: "file", Limit: MaxLimit}
	all, err := before.Search(context.Background(), req)
	if err != nil || len(all.Results) == 0 {
		t.Fatalf("search before the damage: %d results (%v)", len(all.Results), err)
	}
	if all.Metadata.Partial != nil {
		t.Fatalf("an intact store answers partial: %+v", all.Metadata.Partial)
	}
	before.Close()

	damaged := gen.Shards[0].Name
	cutShard(t, home, damaged)
	r := openReader(t, home)
	got, err := r.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("search with a damaged shard fails whole: %v", err)
	}
	p := got.Metadata.Partial
	if p == nil || p.Reason != PartialDamagedShard || len(p.DamagedShards) != 1 || p.DamagedShards[0] != damaged ||
		p.Shards != len(gen.Shards) || p.Repair != RepairCommand || !strings.Contains(p.Note, RepairCommand) {
		t.Fatalf("metadata.partial = %+v, want shard %s named with its repair", p, damaged)
	}
	if len(got.Results) == 0 || len(got.Results) >= len(all.Results) {
		t.Fatalf("%d results with shard %s damaged, %d before: want some, fewer", len(got.Results), damaged, len(all.Results))
	}
	kept := map[string]bool{}
	for _, h := range got.Results {
		kept[h.CtxEventID] = true
	}
	var lost []string
	for _, h := range all.Results {
		if !kept[h.CtxEventID] {
			lost = append(lost, h.CtxEventID)
		}
	}
	if len(lost) == 0 {
		t.Fatal("no result was lost with the damaged shard")
	}
	for _, id := range lost[:min(len(lost), 5)] {
		v, err := r.ShowEvent(id, 0, 0)
		if err != nil || v.Event.ID.String() != id {
			t.Fatalf("show %s, indexed only by the damaged shard: %v", id, err)
		}
		v, err = r.ShowEvent(id[:len("evt_")+12], 0, 0)
		if err != nil || v.Event.ID.String() != id {
			t.Fatalf("show by prefix of %s: %v", id, err)
		}
	}
	if d := r.DamagedShards(); len(d) != 1 || d[0] != damaged {
		t.Fatalf("DamagedShards = %v", d)
	}
}

// TestPoolRetriesALeftOutShard: a pooled Reader that left a shard out is
// not reused, so once the shard opens again (a passing failure, a
// rebuild) the next call searches it.
func TestPoolRetriesALeftOutShard(t *testing.T) {
	home := twoImports(t, t.TempDir())
	r0 := openReader(t, home)
	gen, _ := r0.Generation()
	r0.Close()
	p := filepath.Join(store.At(home).Index(), gen.Shards[0].Name, "store", "root.bolt")
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	cutShard(t, home, gen.Shards[0].Name)
	pool := NewPool(home)
	defer pool.Close()
	search := func() *SearchResult {
		r, rel, err := pool.Acquire()
		if err != nil {
			t.Fatal(err)
		}
		defer rel()
		res, err := r.Search(context.Background(), SearchRequest{Query: "file", Limit: MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := search(); res.Metadata.Partial == nil {
		t.Fatal("a cut shard does not make the pooled search partial")
	}
	if err := os.WriteFile(p, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	if res := search(); res.Metadata.Partial != nil {
		t.Fatalf("the restored shard is still left out: %+v", res.Metadata.Partial)
	}
}
