package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"ctx/core"
	"ctx/objects"
)

// manyDocs returns n small docs spread over a few sessions.
func manyDocs(n int) []Doc {
	sessions := []*core.Session{newSession("m1"), newSession("m2"), newSession("m3")}
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = newDoc(sessions[i%3], fmt.Sprint(i), core.TypeMessage, fmt.Sprintf("event number %d about walrus", i))
	}
	return docs
}

func TestBuildDurability(t *testing.T) {
	tests := []struct {
		name       string
		docs       int
		opts       BuildOptions
		wantShards int
	}{
		{"one doc", 1, BuildOptions{}, 1},
		{"under one batch, two writers", 7, BuildOptions{Shards: 2}, -1},
		{"many batches", 3000, BuildOptions{Shards: 2, BatchSize: 300}, 2},
		{"max shard docs", 2500, BuildOptions{Shards: 1, BatchSize: 400, MaxShardDocs: 1000}, 3},
		// a document a batch: about 150 segments a shard, merged in two passes
		{"more segments than a merge takes", 300, BuildOptions{Shards: 2, BatchSize: core.ChunkSize}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkBuild(t, tt.docs, tt.opts, tt.wantShards) })
	}
}

// checkBuild builds n docs and checks the shard count (unless wantShards is
// negative), the doc counts on reopening and the file modes.
func checkBuild(t *testing.T, n int, opts BuildOptions, wantShards int) {
	t.Helper()
	root := t.TempDir()
	metas := build(t, root, manyDocs(n), opts)
	if wantShards >= 0 && len(metas) != wantShards {
		t.Fatalf("built %d shards, want %d", len(metas), wantShards)
	}
	sum := 0
	for _, m := range metas {
		sum += m.Docs
		if m.Bytes <= 0 {
			t.Errorf("shard %s has size %d", m.Name, m.Bytes)
		}
		if err := Verify(root, m.Name, m.Docs); err != nil {
			t.Errorf("Verify: %v", err)
		}
	}
	if sum != n {
		t.Fatalf("metas count %d docs, want %d", sum, n)
	}
	r, err := Open(root, names(metas), eventsOf(manyDocs(n)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if c, err := r.Count(); err != nil || c != uint64(n) {
		t.Fatalf("Count = %d, %v; want %d", c, err, n)
	}
	if hits := find(t, r, Query{Text: "walrus", Limit: 5}); len(hits) != min(n, 5) {
		t.Fatalf("search found %d hits", len(hits))
	}
	checkPrivate(t, root)
}

// checkPrivate fails unless root holds only shard dirs (no build leftovers)
// with dirs 0700 and files 0600.
func checkPrivate(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, info.Mode().Perm(), want)
		}
		if filepath.Dir(p) == root && filepath.Base(p)[0] == '.' {
			t.Errorf("leftover %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWritersMergeInTurn checks that a writer merges its shard only in
// the build's turn to merge, which it gives back: while another writer
// holds the turn, it publishes nothing and does not return.
func TestWritersMergeInTurn(t *testing.T) {
	root := t.TempDir()
	docs := manyDocs(40)
	groups := make(chan *chunkGroup, len(docs))
	for _, g := range groupsOf(docs) {
		groups <- g
	}
	close(groups)
	merges := newMergeGate()
	merges.turn <- struct{}{} // another writer's merge
	type result struct {
		built []ShardMeta
		err   error
	}
	done := make(chan result)
	go func() {
		built, err := writeShards(context.Background(), root, groups, merges, BuildOptions{BatchSize: core.ChunkSize}.withDefaults())
		done <- result{built, err}
	}()
	select {
	case <-done:
		t.Fatal("the writer finished while another merged")
	case <-time.After(300 * time.Millisecond):
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), buildPrefix) {
			t.Fatalf("%s published while another writer merged", e.Name())
		}
	}
	<-merges.turn
	r := <-done
	if r.err != nil || len(r.built) != 1 || r.built[0].Docs != len(docs) {
		t.Fatalf("built %+v, %v; want one shard of %d events", r.built, r.err, len(docs))
	}
	if err := Verify(root, r.built[0].Name, len(docs)); err != nil {
		t.Fatal(err)
	}
	select {
	case merges.turn <- struct{}{}:
	default:
		t.Fatal("the writer kept the turn to merge")
	}
}

func TestBuildEmpty(t *testing.T) {
	root := t.TempDir()
	if metas := build(t, root, nil, BuildOptions{}); len(metas) != 0 {
		t.Fatalf("built %v from nothing", metas)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("root holds %d entries", len(ents))
	}
	r, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if hits := find(t, r, Query{Text: "anything"}); len(hits) != 0 {
		t.Fatal("hits from no shards")
	}
}

func TestBuildCancel(t *testing.T) {
	root := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	docs := make(chan Doc)
	go func() {
		for i, d := range manyDocs(3000) {
			if i == 2500 {
				cancel()
			}
			select {
			case docs <- d:
			case <-ctx.Done():
				return
			}
		}
	}()
	_, err := BuildShards(ctx, root, docs, BuildOptions{BatchSize: 500})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("cancelled build left %d entries", len(ents))
	}
}

func TestBuildInvalidDocRemovesShards(t *testing.T) {
	root := t.TempDir()
	docs := append(manyDocs(1200), Doc{})
	_, err := BuildShards(context.Background(), root, feed(docs), BuildOptions{Shards: 1, BatchSize: 100, MaxShardDocs: 500})
	if !errors.Is(err, ErrInvalidDoc) {
		t.Fatalf("err = %v, want ErrInvalidDoc", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("failed build left %d entries", len(ents))
	}
}

func TestShardErrors(t *testing.T) {
	root := t.TempDir()
	metas := build(t, root, manyDocs(10), BuildOptions{Shards: 1})
	good := metas[0].Name
	damaged := build(t, root, manyDocs(10), BuildOptions{Shards: 1})[0].Name
	if err := os.WriteFile(filepath.Join(root, damaged, "index_meta.json"), []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	truncated := build(t, root, manyDocs(10), BuildOptions{Shards: 1})[0].Name
	zaps, _ := filepath.Glob(filepath.Join(root, truncated, "store", "*.zap"))
	for _, z := range zaps {
		if err := os.Truncate(z, 100); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		shards []string
		bad    string
		kind   error
	}{
		{"missing", []string{good, "0123abcd"}, "0123abcd", ErrShardMissing},
		{"damaged meta", []string{good, damaged}, damaged, ErrShardDamaged},
		{"truncated segments", []string{good, truncated}, truncated, ErrShardDamaged},
		{"old format", []string{good, oldFormat(t, root)}, "old", ErrShardFormat},
		{"format 2", []string{good, format2(t, root)}, "format2", ErrShardFormat},
		{"invalid name", []string{"../etc"}, "../etc", ErrInvalidShardName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(root, tt.shards)
			var se *ShardError
			if !errors.As(err, &se) || se.Shard != tt.bad || !errors.Is(err, tt.kind) {
				t.Fatalf("Open err = %v, want a ShardError for %s wrapping %v", err, tt.bad, tt.kind)
			}
		})
	}
	// Left out, not failing, when the reader skips what the store can
	// rebuild: a search of the others says which it left out.
	t.Run("skipped", func(t *testing.T) {
		r, err := Open(root, []string{good, damaged, truncated, "format2", "0123abcd"}, SkipDamaged())
		if err != nil {
			t.Fatalf("Open with SkipDamaged: %v", err)
		}
		defer r.Close()
		var left []string
		for _, se := range r.Damaged() {
			left = append(left, se.Shard)
		}
		if want := []string{damaged, truncated, "format2", "0123abcd"}; !slices.Equal(left, want) {
			t.Fatalf("left out %v, want %v", left, want)
		}
		if got := r.Damaged()[2]; !errors.Is(got, ErrShardFormat) {
			t.Fatalf("format 2 shard left out as %v, want ErrShardFormat", got)
		}
	})
	t.Run("verify count", func(t *testing.T) {
		err := Verify(root, good, 11)
		var se *ShardError
		if !errors.As(err, &se) || !errors.Is(err, ErrShardDamaged) {
			t.Fatalf("Verify err = %v", err)
		}
		if err := Verify(root, good, 10); err != nil {
			t.Fatal(err)
		}
	})
}

// oldFormat writes a shard named "old" whose mapping lacks the stored hit
// field, as shards of an earlier version did.
func oldFormat(t *testing.T, root string) string {
	t.Helper()
	m := newMapping()
	m.DefaultMapping.Properties[fieldHit].Fields[0].Store = false
	idx, err := bleve.New(filepath.Join(root, "old"), m)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.Index("evt_x", map[string]string{fieldText: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	return "old"
}

// format2 writes a shard named "format2" as format 2 did: its text field
// analyzed by bleve with CodeAnalyzer, its hit without event lengths.
func format2(t *testing.T, root string) string {
	t.Helper()
	m := newMapping()
	m.DefaultMapping.Properties[fieldText].Fields[0].Analyzer = CodeAnalyzer
	idx, err := bleve.New(filepath.Join(root, "format2"), m)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.Index("evt_x", map[string]string{fieldText: "x", fieldHit: "2"}); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	return "format2"
}

func TestDuplicateIDsInOneShard(t *testing.T) {
	docs := manyDocs(10)
	again := docs[3]
	again.Event = &core.Event{}
	*again.Event = *docs[3].Event
	again.Event.Text = "revised walrus narwhal"
	again.Chunk = objects.Hash([]byte("revised chunk"))
	docs = append(docs, again, docs[4])
	root := t.TempDir()
	metas := build(t, root, docs, BuildOptions{Shards: 1, BatchSize: 5})
	if metas[0].Docs != 10 {
		t.Fatalf("docs = %d, want 10 distinct", metas[0].Docs)
	}
	r, err := Open(root, names(metas), eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if hits := find(t, r, Query{Text: "narwhal"}); len(hits) != 0 { // the first version is kept
		t.Fatalf("got %v", describe(hits))
	}
}
