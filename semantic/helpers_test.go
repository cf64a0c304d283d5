package semantic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// testRow is a row of a synthetic set with the vector it was built from.
type testRow struct {
	event   core.Event
	session core.Session
	chunk   objects.ID
	vec     []float32
}

// randomRows returns n rows of random unit vectors over a few sessions,
// providers, workspaces, roles, types and times.
func randomRows(seed uint64, n, dim int) []testRow {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var sessions []core.Session
	for i := range 12 {
		s := core.Session{ID: core.NewSessionID("p", fmt.Sprint(i)), Provider: []string{"claude-code", "codex"}[i%2],
			Workspace: []string{"/src/a", "/src/a/sub", "/src/ab"}[i%3], IsSubagent: i%4 == 3,
			Source: core.SourceRef{Root: []string{"", "laptop"}[i%2], Group: []string{"", "", "g1"}[i%3]}}
		s.RootSessionID = s.ID
		if s.IsSubagent {
			s.RootSessionID = sessions[i-1].ID
		}
		sessions = append(sessions, s)
	}
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]testRow, n)
	for i := range rows {
		s := sessions[rng.IntN(len(sessions))]
		v := make([]float32, dim)
		for d := range v {
			v[d] = float32(rng.NormFloat64())
		}
		normalize(v)
		e := core.Event{ID: core.NewEventID(s.ID, fmt.Sprint(i)), SessionID: s.ID, Type: core.TypeMessage,
			Role: []core.Role{core.RoleUser, core.RoleAssistant}[rng.IntN(2)], Timestamp: t0.Add(time.Duration(i) * time.Minute)}
		if i%7 == 0 {
			e.Type = core.TypeSummary
		}
		if i%11 == 0 {
			e.Timestamp = time.Time{}
		}
		if i%13 == 0 {
			e.Files = []core.FileTouch{{Path: fmt.Sprintf("/src/a/f%d.go", i%3)}}
		}
		rows[i] = testRow{event: e, session: s, chunk: objects.HashParts("chunk", fmt.Sprint(i/16)), vec: v}
	}
	return rows
}

// writeRows writes the rows as sets of at most per rows each and a
// manifest for a made-up generation, and returns that generation's id.
func writeRows(t testing.TB, home string, rows []testRow, per int, dead map[objects.ID]bool) objects.ID {
	t.Helper()
	dim := len(rows[0].vec)
	gen := objects.HashParts("gen", fmt.Sprint(len(rows), per, time.Now().UnixNano()))
	m := &Manifest{Format: setFormat, Generation: gen, Number: 1, Embedder: "test", Dim: dim}
	must(t, os.MkdirAll(home, 0o700))
	for start := 0; start < len(rows); start += per {
		sb := newSetBuilder(home, dim)
		for _, r := range rows[start:min(start+per, len(rows))] {
			must(t, sb.add(&r.event, &r.session, r.chunk, r.vec))
		}
		info, err := sb.write("test", 1)
		if err != nil {
			t.Fatal(err)
		}
		ref := SetRef{Name: info.Name, Count: info.Count, Chunks: info.Chunks, Generation: 1}
		for i, c := range sb.chunks {
			if dead[c] {
				ref.Dead = append(ref.Dead, uint32(i))
			}
		}
		m.Sets = append(m.Sets, ref)
	}
	if err := writeManifest(home, m); err != nil {
		t.Fatal(err)
	}
	return gen
}

func openIndex(t testing.TB, home string, gen objects.ID) *Index {
	t.Helper()
	ix, err := Open(home, gen)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// dequantized returns the vector a set stores for v, as float64.
func dequantized(v []float32) []float64 {
	codes := make([]int8, len(v))
	scale := quantize(v, codes)
	out := make([]float64, len(v))
	for i, c := range codes {
		out[i] = float64(c) * float64(scale)
	}
	return out
}

// dequantizedQuery returns the query as Search quantizes it.
func dequantizedQuery(q []float32) []float64 {
	terms, scale := quantizeQuery(q)
	out := make([]float64, len(q))
	for _, t := range terms {
		out[t.d] = float64(t.w) * scale
	}
	return out
}

func dot64(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// sparseQuery returns a unit vector with nz random non-zero dimensions.
func sparseQuery(rng *rand.Rand, dim, nz int) []float32 {
	q := make([]float32, dim)
	for range nz {
		q[rng.IntN(dim)] = float32(rng.NormFloat64())
	}
	normalize(q)
	return q
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a)) }

// testStore is a store with a chain of generations built by publish.
type testStore struct {
	home    string
	vectors string // the store's vectors directory
	store   *objects.Store
	rs      *refs.Refs
	prev    map[core.SessionID][]core.ChunkRef
	tree    map[core.SessionID]core.TreeEntry
	number  uint64
	last    objects.ID
	early   *Early // when set, publish hands it each new chunk
}

func newTestStore(t testing.TB) *testStore {
	t.Helper()
	home := t.TempDir()
	st, err := objects.Open(home + "/objects")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := refs.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	return &testStore{home: home, vectors: home + "/vectors", store: st, rs: rs, prev: map[core.SessionID][]core.ChunkRef{},
		tree: map[core.SessionID]core.TreeEntry{}}
}

// publish writes the sessions (replacing earlier versions of the same
// session) and a generation over every session written so far.
func (ts *testStore) publish(t testing.TB, sessions ...*core.ParsedSession) objects.ID {
	t.Helper()
	b := ts.store.NewBatch()
	for _, ps := range sessions {
		w, err := core.WriteSession(b, ps, ts.prev[ps.Session.ID])
		if err != nil {
			t.Fatal(err)
		}
		ts.prev[ps.Session.ID], ts.tree[ps.Session.ID] = w.Object.Chunks, w.Entry
		for _, nc := range w.NewChunks {
			ts.early.Add(nc.Ref.ID, nc.Chunk.Events) // as an import hands them over
		}
	}
	var entries []core.TreeEntry
	for _, e := range ts.tree {
		entries = append(entries, e)
	}
	treeID, err := core.NewTree(entries).Put(b)
	must(t, err)
	curID, err := (&core.Cursors{}).Put(b)
	must(t, err)
	ts.number++
	g := &refs.Generation{Number: ts.number, Tree: treeID, Cursors: curID, Created: time.Now(), Importer: "test"}
	if ts.number > 1 {
		g.Parent = &ts.last
	}
	data, err := g.Encode()
	must(t, err)
	id, err := b.Put(data)
	must(t, err)
	must(t, b.Commit())
	must(t, ts.rs.Update(refs.Active, ts.last, id, "test"))
	ts.last = id
	return id
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// chatSession returns a finalized session whose events alternate a user
// message, an assistant message, a tool call and its output, with texts
// taken in turn from texts.
func chatSession(native string, n int, texts []string) *core.ParsedSession {
	ps := &core.ParsedSession{Session: core.Session{Provider: core.ProviderClaude, NativeID: native,
		Workspace: "/work/" + native, Source: core.SourceRef{Provider: core.ProviderClaude, Path: "/x/" + native}}}
	kinds := []struct {
		role core.Role
		typ  core.EventType
	}{{core.RoleUser, core.TypeMessage}, {core.RoleAssistant, core.TypeMessage},
		{core.RoleAssistant, core.TypeToolCall}, {core.RoleTool, core.TypeToolOutput}}
	t0 := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		k := kinds[i%len(kinds)]
		ps.Events = append(ps.Events, core.Event{Role: k.role, Type: k.typ, Key: fmt.Sprint(i),
			Timestamp: t0.Add(time.Duration(i) * time.Second), Text: texts[i%len(texts)] + fmt.Sprintf(" (#%d %s)", i, native)})
	}
	ps.Finalize()
	return ps
}

// truncate cuts the last byte off a file.
func truncate(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return os.Truncate(path, fi.Size()-1)
}
