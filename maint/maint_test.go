package maint_test

import (
	"context"
	ctxstore "ctx/store"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/maint"
	"ctx/objects"
	"ctx/query"
	"ctx/sources"
)

func importAll(t *testing.T, home, store string) *ingest.Report {
	t.Helper()
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Sources: srcs, Version: "test",
		Env: core.Env{Home: home, Getenv: func(string) string { return "" }}, Busy: func() {}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func countObjects(t *testing.T, store string) int {
	t.Helper()
	s, _ := objects.Open(ctxstore.At(store).Objects())
	n := 0
	_ = s.Walk(func(objects.ID) error { n++; return nil })
	return n
}

func TestGCKeepsActiveAndRemovesTheRest(t *testing.T) {
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	if _, err := corpus.Generate(home, corpus.Options{Events: 2000, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	importAll(t, home, store)
	var files []string
	_ = filepath.Walk(filepath.Join(home, ".claude"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if _, err := corpus.Append(files[0], 100, 5); err != nil {
		t.Fatal(err)
	}
	if rep := importAll(t, home, store); !rep.Published {
		t.Fatal("append not published")
	}
	before := countObjects(t, store)
	// Keeping a week keeps both generations: nothing to remove.
	rep, err := maint.GC(context.Background(), store, maint.GCOptions{Keep: 7 * 24 * time.Hour, Now: time.Now()})
	if err != nil || rep.ObjectsRemoved != 0 || rep.KeptGenerations != 2 {
		t.Fatalf("gc keep 7d: %+v %v", rep, err)
	}
	rep, err = maint.GC(context.Background(), store, maint.GCOptions{Keep: 0, Now: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	// Generation 1's own objects go: its tree, cursors, generation and
	// session object. The replaced tail chunk stays: generation 2 still
	// has the shard that indexed it, whose groups are read from it.
	if rep.KeptGenerations != 1 || rep.ObjectsRemoved < 4 || countObjects(t, store) != before-rep.ObjectsRemoved {
		t.Fatalf("gc keep 0: %+v (before %d)", rep, before)
	}
	v, err := maint.Verify(store)
	if err != nil || !v.OK || v.Generations != 1 {
		t.Fatalf("verify after gc: %+v %v", v, err)
	}
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if res, err := r.Search(context.Background(), query.SearchRequest{Query: "test"}); err != nil || len(res.Results) == 0 {
		t.Fatalf("search after gc: %v", err)
	}
}

func TestVerifyNamesCorruptObject(t *testing.T) {
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	if _, err := corpus.Generate(home, corpus.Options{Events: 500, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	importAll(t, home, store)
	s, _ := objects.Open(ctxstore.At(store).Objects())
	var victim objects.ID
	_ = s.Walk(func(id objects.ID) error { victim = id; return nil })
	p := filepath.Join(ctxstore.At(store).Objects(), victim.String()[:2], victim.String()[2:])
	data, _ := os.ReadFile(p)
	data[len(data)/3] ^= 0x10
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := maint.Verify(store)
	if err != nil {
		t.Fatal(err)
	}
	if v.OK || len(v.Damage) == 0 || v.Damage[0].Name != victim.String() {
		t.Fatalf("verify did not name %s: %+v", victim, v.Damage)
	}
}

// TestGCKeepsTreePieces: a store of more sessions and files than a tree and
// a cursor set hold whole publishes them in pieces; gc keeps every piece
// of the generations it keeps and removes the replaced ones, and the store
// verifies, searches and lists.
func TestGCKeepsTreePieces(t *testing.T) {
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	write := oneLineSessions(t, home)
	const sessions = 700
	for i := range sessions {
		write(i, fmt.Sprintf("session %d asks about widget%d", i, i))
	}
	first := importAll(t, home, store)
	s, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	before, err := treePieces(t, s, first.Generation.Tree)
	if err != nil || len(before) < 2 {
		t.Fatalf("a tree of %d sessions: %d pieces (%v)", sessions, len(before), err)
	}
	write(5, "a later question about gadget5")
	second := importAll(t, home, store)
	after, err := treePieces(t, s, second.Generation.Tree)
	if err != nil || !second.Published || len(after) != len(before) {
		t.Fatalf("after an append: %d pieces (were %d), published %v, %v", len(after), len(before), second.Published, err)
	}
	var replaced []objects.ID
	for i := range before {
		if before[i] != after[i] {
			replaced = append(replaced, before[i])
		}
	}
	if len(replaced) != 1 {
		t.Fatalf("one session grew: %d pieces replaced", len(replaced))
	}
	if _, err := maint.GC(context.Background(), store, maint.GCOptions{Keep: 0, Now: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if s.Has(replaced[0]) {
		t.Fatal("gc kept the replaced piece")
	}
	for _, id := range after {
		if !s.Has(id) {
			t.Fatalf("gc removed piece %s of the active tree", id)
		}
	}
	cursorPieces, err := treePieces(t, s, second.Generation.Cursors)
	if err != nil || len(cursorPieces) < 2 {
		t.Fatalf("the cursors of %d files: %d pieces (%v)", sessions, len(cursorPieces), err)
	}
	if c, err := core.LoadCursors(s, second.Generation.Cursors); err != nil || len(c.Files) != sessions {
		t.Fatalf("cursors after gc: %v", err)
	}
	v, err := maint.Verify(store)
	if err != nil || !v.OK {
		t.Fatalf("verify after gc: %+v %v", v, err)
	}
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, q := range []string{"widget611", "gadget5"} {
		if res, err := r.Search(context.Background(), query.SearchRequest{Query: q}); err != nil || len(res.Results) != 1 {
			t.Fatalf("search %q after gc: %d results, %v", q, len(res.Results), err)
		}
	}
	if l, err := r.ListSessions(query.SessionsRequest{Limit: 1000}); err != nil || l.Total != sessions {
		t.Fatalf("list after gc: %v", err)
	}
}

// oneLineSessions returns a function that appends a user line of words
// to Claude Code session i under home.
func oneLineSessions(t *testing.T, home string) func(i int, words string) {
	dir := filepath.Join(home, ".claude", "projects", "-work-demo")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return func(i int, words string) {
		t.Helper()
		line := fmt.Sprintf(`{"type":"user","uuid":"u%d-%d","sessionId":"s%d","timestamp":"2026-01-02T03:04:05.000Z",`+
			`"cwd":"/work/demo","message":{"role":"user","content":"%s"}}`+"\n", i, len(words), i, words)
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i)), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVerifyCountsForgottenInPiecedTrees: verify counts, per forgotten
// session, the kept generations whose tree (in pieces here, which it
// reads once each) still holds it: the two generations before the forget,
// not the two after it.
func TestVerifyCountsForgottenInPiecedTrees(t *testing.T) {
	home, store := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "store")
	write := oneLineSessions(t, home)
	for i := range 600 {
		write(i, fmt.Sprintf("session %d", i))
	}
	first := importAll(t, home, store)
	write(1, "a second line")
	importAll(t, home, store)
	var gone []core.SessionID
	for _, e := range mustTree(t, store, first.Generation.Tree).Sessions[:2] {
		gone = append(gone, e.Session)
	}
	if _, err := ingest.Forget(context.Background(), ingest.Options{Home: store, Version: "test"},
		ingest.ForgetRequest{Sessions: gone}); err != nil {
		t.Fatal(err)
	}
	write(2, "a line after the forget")
	importAll(t, home, store)
	v, err := maint.Verify(store)
	if err != nil || v.Generations != 4 || v.Forgotten.Sessions != 2 || len(v.Forgotten.Reachable) != 2 {
		t.Fatalf("verify: %+v %+v %v", v, v.Forgotten, err)
	}
	for _, id := range gone {
		if n := v.Forgotten.Reachable[id.String()]; n != 2 {
			t.Fatalf("session %s reachable from %d kept generations, want 2", id, n)
		}
	}
}

// mustTree loads the tree id of store.
func mustTree(t *testing.T, store string, id objects.ID) *core.Tree {
	t.Helper()
	s, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	tree, err := core.LoadTree(s, id)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// treePieces returns the pieces of the tree or cursor set id.
func treePieces(t *testing.T, s *objects.Store, id objects.ID) ([]objects.ID, error) {
	t.Helper()
	data, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	return core.Pieces(id, data)
}
