package semantic

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"testing"
	"time"

	"ctx/core"
	"ctx/objects"
)

// bruteForce scores every accepted row against the quantized query exactly
// as stored, in float64, and returns the k best event ids.
func bruteForce(rows []testRow, q []float32, k int, accept func(*testRow) bool) []core.EventID {
	qq := dequantizedQuery(q)
	stored := storedVectors(rows)
	type scored struct {
		id    core.EventID
		score float64
	}
	var all []scored
	for i := range rows {
		if accept != nil && !accept(&rows[i]) {
			continue
		}
		if s := dot64(stored[i], qq); s > 0 {
			all = append(all, scored{rows[i].event.ID, s})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].score > all[j].score })
	var out []core.EventID
	for _, s := range all[:min(k, len(all))] {
		out = append(out, s.id)
	}
	return out
}

var storedCache = map[*testRow][][]float64{}

// storedVectors returns the dequantized vectors of the rows, computed once
// per row slice.
func storedVectors(rows []testRow) [][]float64 {
	if v, ok := storedCache[&rows[0]]; ok {
		return v
	}
	out := make([][]float64, len(rows))
	for i := range rows {
		out[i] = dequantized(rows[i].vec)
	}
	storedCache[&rows[0]] = out
	return out
}

func ids(ms []core.Hit) []core.EventID {
	out := make([]core.EventID, len(ms))
	for i, m := range ms {
		out[i] = m.EventID
	}
	return out
}

// TestSearchIsExact compares Search with brute force over the stored
// vectors, for dense and sparse queries, over several sets scanned by
// several goroutines.
func TestSearchIsExact(t *testing.T) {
	home := t.TempDir()
	rows := randomRows(1, 70_000, 64)
	ix := openIndex(t, home, writeRows(t, home, rows, 40_000, nil))
	if ix.Len() != len(rows) {
		t.Fatalf("%d live rows, want %d", ix.Len(), len(rows))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 12 {
		q := sparseQuery(rng, 64, []int{64, 8, 3}[i%3])
		res, err := ix.Search(context.Background(), q, nil, 25)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteForce(rows, q, 25, nil); !slices.Equal(ids(res.Matches), want) {
			t.Fatalf("query %d: got %v\nwant %v", i, ids(res.Matches), want)
		}
		qq, stored := dequantizedQuery(q), storedVectors(rows)
		for _, m := range res.Matches {
			i := slices.IndexFunc(rows, func(r testRow) bool { return r.event.ID == m.EventID })
			if want := dot64(stored[i], qq); !near(m.Score, want) {
				t.Fatalf("score %v, want %v", m.Score, want)
			}
		}
	}
}

// TestSearchRecall checks that quantization keeps the float ranking: the
// top 10 by int8 codes hold at least 9 of the top 10 by float32 cosine.
func TestSearchRecall(t *testing.T) {
	home := t.TempDir()
	rows := randomRows(2, 20_000, 384)
	ix := openIndex(t, home, writeRows(t, home, rows, 1<<20, nil))
	rng := rand.New(rand.NewPCG(3, 4))
	hits := 0
	for range 20 {
		q := sparseQuery(rng, 384, 384)
		res, err := ix.Search(context.Background(), q, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		order := make([]int, len(rows))
		scores := make([]float64, len(rows))
		for i := range rows {
			order[i], scores[i] = i, cosine(rows[i].vec, q)
		}
		sort.Slice(order, func(i, j int) bool { return scores[order[i]] > scores[order[j]] })
		for _, i := range order[:10] {
			if slices.Contains(ids(res.Matches), rows[i].event.ID) {
				hits++
			}
		}
	}
	if hits < 180 {
		t.Fatalf("recall@10 %d/200", hits)
	}
}

func TestSearchFilters(t *testing.T) {
	home := t.TempDir()
	rows := randomRows(5, 3000, 32)
	dead := map[objects.ID]bool{rows[0].chunk: true, rows[100].chunk: true}
	ix := openIndex(t, home, writeRows(t, home, rows, 1000, dead))
	since := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	until := since.Add(20 * time.Hour)
	live := func(r *testRow) bool { return !dead[r.chunk] }
	cases := map[string]struct {
		f      core.Filter
		accept func(*testRow) bool
	}{
		"none":    {core.Filter{}, live},
		"type":    {core.Filter{Types: []core.EventType{core.TypeSummary}}, func(r *testRow) bool { return r.event.Type == core.TypeSummary }},
		"role":    {core.Filter{Roles: []core.Role{core.RoleUser}}, func(r *testRow) bool { return r.event.Role == core.RoleUser }},
		"primary": {core.Filter{PrimaryOnly: true}, func(r *testRow) bool { return !r.session.IsSubagent }},
		"provider": {core.Filter{Providers: []string{"codex"}},
			func(r *testRow) bool { return r.session.Provider == "codex" }},
		"workspace": {core.Filter{Workspace: "/src/a/"},
			func(r *testRow) bool { return r.session.Workspace == "/src/a" || r.session.Workspace == "/src/a/sub" }},
		"session": {core.Filter{Sessions: []core.SessionID{rows[5].session.ID}},
			func(r *testRow) bool { return r.session.ID == rows[5].session.ID }},
		"sources": {core.Filter{SourceRoots: []string{"laptop"}, SourceGroups: []string{"g1"}},
			func(r *testRow) bool { return r.session.Source.Root == "laptop" || r.session.Source.Group == "g1" }},
		"time": {core.Filter{Since: since, Until: until}, func(r *testRow) bool {
			ts := r.event.Timestamp
			return !ts.IsZero() && !ts.Before(since) && ts.Before(until)
		}},
		"file": {core.Filter{Files: []string{"f1.go"}},
			func(r *testRow) bool { return len(r.event.Files) > 0 && r.event.Files[0].Path == "/src/a/f1.go" }},
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for name, c := range cases {
		q := sparseQuery(rng, 32, 32)
		res, err := ix.Search(context.Background(), q, &c.f, 15)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteForce(rows, q, 15, func(r *testRow) bool { return live(r) && c.accept(r) })
		if !slices.Equal(ids(res.Matches), want) || len(want) == 0 {
			t.Errorf("%s: got %v\nwant %v", name, ids(res.Matches), want)
		}
	}
}

func TestSearchMatchFields(t *testing.T) {
	home := t.TempDir()
	rows := randomRows(6, 50, 16)
	ix := openIndex(t, home, writeRows(t, home, rows, 100, nil))
	res, err := ix.Search(context.Background(), rows[12].vec, nil, 1)
	if err != nil || len(res.Matches) != 1 {
		t.Fatal(res, err)
	}
	m, r := res.Matches[0], rows[12]
	if m.EventID != r.event.ID || m.SessionID != r.session.ID || m.RootSessionID != r.session.RootSessionID ||
		m.IsSubagent != r.session.IsSubagent || m.EventType != r.event.Type || m.Role != r.event.Role ||
		m.Provider != r.session.Provider || m.Workspace != r.session.Workspace || m.Chunk != r.chunk ||
		!m.Timestamp.Equal(r.event.Timestamp) || m.Score < 0.99 {
		t.Fatalf("match %+v\nrow %+v", m, r)
	}
	if _, err := ix.Search(context.Background(), make([]float32, 17), nil, 1); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("a vector of another dimension: %v", err)
	}
}

func TestOpenDamaged(t *testing.T) {
	home := t.TempDir()
	if _, err := Open(home, objects.HashParts("none")); !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("no manifest: %v", err)
	}
	rows := randomRows(7, 10, 8)
	gen := writeRows(t, home, rows, 100, nil)
	m, err := LoadManifest(home, gen)
	must(t, err)
	must(t, Verify(home, gen))
	path := home + "/" + m.Sets[0].Name + "/" + setFile
	data, err := os.ReadFile(path)
	must(t, err)
	data[headerSize+3] ^= 0x40 // a code: the set opens, the checksum fails
	must(t, os.WriteFile(path, data, 0o600))
	if _, err := Open(home, gen); err != nil {
		t.Fatalf("a flipped code: %v", err)
	}
	if err := Verify(home, gen); !errors.Is(err, ErrDamaged) {
		t.Fatalf("verify of a flipped code: %v", err)
	}
	must(t, truncate(path))
	if _, err := Open(home, gen); !errors.Is(err, ErrDamaged) {
		t.Fatalf("truncated set: %v", err)
	}
}
