package query

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/ingest"
	sharedfx "ctx/internal/fixtures"
	"ctx/objects"
	"ctx/refs"
	"ctx/sources"
	"ctx/store"
)

func fixturesDir(t testing.TB) string {
	t.Helper()
	return sharedfx.Dir(t)
}

// fixtureStore imports the real Claude Code and Codex fixtures into a new
// store under root and returns its directory.
func fixtureStore(t testing.TB, root string) string {
	t.Helper()
	return fixtureStoreWith(t, root, nil)
}

// fixtureStoreWith imports the fixtures with the given semantic
// configuration (nil: the default, vectors of the built-in embedder).
func fixtureStoreWith(t testing.TB, root string, sem *config.Semantic) string {
	t.Helper()
	fx := fixturesDir(t)
	home := filepath.Join(root, "home")
	sharedfx.Copy(t, filepath.Join(fx, "claude-code", "projects"), filepath.Join(home, ".claude", "projects"))
	sharedfx.Copy(t, filepath.Join(fx, "codex", "sessions"), filepath.Join(home, ".codex", "sessions"))
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	store := filepath.Join(root, "store")
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	if _, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: env, Sources: srcs, Version: "test",
		Semantic: sem}); err != nil {
		t.Fatal(err)
	}
	return store
}

func openReader(t testing.TB, home string) *Reader {
	t.Helper()
	r, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// synthSession returns a finalized session of n events cycling through a
// user message, an assistant message, a tool call and its output.
func synthSession(native string, n int) *core.ParsedSession {
	ps := &core.ParsedSession{Session: core.Session{Provider: core.ProviderClaude, NativeID: native,
		Workspace: "/work/synth", Source: core.SourceRef{Provider: core.ProviderClaude, Path: "/synth/" + native}}}
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	types := []struct {
		role core.Role
		typ  core.EventType
	}{{core.RoleUser, core.TypeMessage}, {core.RoleAssistant, core.TypeMessage},
		{core.RoleAssistant, core.TypeToolCall}, {core.RoleTool, core.TypeToolOutput}}
	for i := range n {
		k := types[i%len(types)]
		e := core.Event{Role: k.role, Type: k.typ, Timestamp: t0.Add(time.Duration(i) * time.Second),
			Text: fmt.Sprintf("event %d of %s: %s", i, native, strings.Repeat("lorem ipsum ", 16))}
		if k.typ == core.TypeToolCall {
			e.Tool, e.CallID = "Edit", fmt.Sprintf("call_%d", i)
			e.Files = []core.FileTouch{{Path: fmt.Sprintf("/work/synth/f%d.go", i%7), Op: core.OpEdit, OldText: "a", NewText: "b"}}
		}
		ps.Events = append(ps.Events, e)
	}
	ps.Finalize()
	return ps
}

// publishSynth writes the sessions as a new generation of the store in home
// (creating it) and moves refs/active to it.
func publishSynth(t testing.TB, home string, sessions ...*core.ParsedSession) {
	t.Helper()
	w, err := store.OpenWriter(context.Background(), home, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	objs, rs := w.Objects, w.Refs
	prevID, err := rs.Get(refs.Active)
	number := uint64(1)
	var parent *objects.ID
	if err == nil {
		prev, err := refs.Load(objs, prevID)
		if err != nil {
			t.Fatal(err)
		}
		number, parent = prev.Number+1, &prevID
	} else if !errors.Is(err, refs.ErrNoRef) {
		t.Fatal(err)
	}
	b := objs.NewBatch()
	var entries []core.TreeEntry
	events := 0
	for _, ps := range sessions {
		w, err := core.WriteSession(b, ps, nil)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, w.Entry)
		events += ps.Session.EventCount
	}
	treeID, err := core.NewTree(entries).Put(b)
	if err != nil {
		t.Fatal(err)
	}
	curID, err := (&core.Cursors{}).Put(b)
	if err != nil {
		t.Fatal(err)
	}
	g := &refs.Generation{Number: number, Parent: parent, Tree: treeID, Cursors: curID, Created: time.Now(),
		Importer: "test", Sessions: len(entries), Events: events}
	data, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	genID, err := b.Put(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := rs.Update(refs.Active, prevID, genID, "test"); err != nil {
		t.Fatal(err)
	}
}

// allEvents lists every event of the reader's generation in tree order,
// each session by ordinal: the order of ListEvents asc.
func allEvents(t testing.TB, r *Reader) []*core.Event {
	t.Helper()
	tree, err := r.Tree()
	if err != nil {
		t.Fatal(err)
	}
	var out []*core.Event
	for _, e := range tree.Sessions {
		so, err := r.loadSession(e)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := core.LoadEvents(r.store, so)
		if err != nil {
			t.Fatal(err)
		}
		for i := range evs {
			out = append(out, &evs[i])
		}
	}
	return out
}

// listAll pages through req to the end and returns the event ids in order.
func listAll(t testing.TB, r *Reader, req ListRequest) []string {
	t.Helper()
	var ids []string
	for pages := 0; ; pages++ {
		if pages > 100000 {
			t.Fatal("paging does not end")
		}
		p, err := r.ListEvents(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if p.Usage.Returned != len(p.Events) || (p.NextCursor == "") != p.Complete {
			t.Fatalf("inconsistent page: returned %d of %d, complete %v, cursor %q", p.Usage.Returned, len(p.Events), p.Complete, p.NextCursor)
		}
		for _, e := range p.Events {
			ids = append(ids, e.CtxEventID)
		}
		if p.NextCursor == "" {
			return ids
		}
		req.Cursor = p.NextCursor
	}
}

var synthOnce sync.Map

// synthStore returns a store holding sessions of the given sizes, built
// once per test binary for each size list.
func synthStore(t testing.TB, sizes ...int) string {
	t.Helper()
	key := fmt.Sprint(sizes)
	if v, ok := synthOnce.Load(key); ok {
		return v.(string)
	}
	home, err := os.MkdirTemp("", "ctx-query-synth-")
	if err != nil {
		t.Fatal(err)
	}
	var ss []*core.ParsedSession
	for i, n := range sizes {
		ss = append(ss, synthSession(fmt.Sprintf("synth-%d", i), n))
	}
	publishSynth(t, home, ss...)
	synthOnce.Store(key, home)
	return home
}

func TestMain(m *testing.M) {
	code := m.Run()
	synthOnce.Range(func(_, v any) bool { os.RemoveAll(v.(string)); return true })
	os.Exit(code)
}

// mustFilter parses a test's filter arguments.
func mustFilter(a FilterArgs) core.Filter {
	f, err := a.Parse()
	if err != nil {
		panic(err)
	}
	return f
}
