package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/objects"
)

func TestScopeSelectionAndWeights(t *testing.T) {
	const text = "zebrafish migration stalled"
	var docs []Doc
	byType := map[core.EventType]Doc{}
	for _, typ := range core.EventTypes {
		d := newDoc(newSession("s-"+string(typ)), "e", typ, text)
		docs = append(docs, d)
		byType[typ] = d
	}
	r := openIndex(t, docs)

	t.Run("all ranks by class weight", func(t *testing.T) {
		hits := find(t, r, Query{Text: "zebrafish"})
		if len(hits) != len(docs) {
			t.Fatalf("got %d hits, want %d", len(hits), len(docs))
		}
		if hits[0].EventType != core.TypeMessage {
			t.Fatalf("first hit %v, want the message", describe(hits))
		}
		score := map[core.EventType]float64{}
		for _, h := range hits {
			score[h.EventType] = h.Score
		}
		for _, typ := range core.EventTypes {
			w, _ := core.ScopeAll.Weight(typ)
			if got := score[typ] / score[core.TypeMessage]; math.Abs(got-w) > 1e-9 {
				t.Errorf("%s scores %.3f of a message, want %.3f", typ, got, w)
			}
		}
	})
	for _, scope := range []core.Scope{core.ScopeTranscript, core.ScopeCalls, core.ScopeOutputs} {
		t.Run(string(scope), func(t *testing.T) {
			var want []Doc
			for _, typ := range scope.Types() {
				want = append(want, byType[typ])
			}
			hits := find(t, r, Query{Text: "zebrafish", Scope: scope})
			sameSet(t, hits, want...)
			for _, h := range hits[1:] {
				wa, _ := scope.Weight(hits[0].EventType)
				wb, _ := scope.Weight(h.EventType)
				if math.Abs(h.Score/hits[0].Score-wb/wa) > 1e-9 {
					t.Errorf("%s: %s scored %.3f against %.3f", scope, h.EventType, h.Score, hits[0].Score)
				}
			}
		})
	}
	t.Run("event type", func(t *testing.T) {
		sameSet(t, find(t, r, Query{Text: "zebrafish", Filter: core.Filter{Types: []core.EventType{core.TypeCommandFinish}}}),
			byType[core.TypeCommandFinish])
	})
	t.Run("invalid scope", func(t *testing.T) {
		if _, err := r.Search(context.Background(), Query{Text: "x", Scope: "bogus"}); err == nil {
			t.Fatal("want an error for an invalid scope")
		}
	})
}

func TestFilters(t *testing.T) {
	ab := newSession("ab", inWorkspace("/a/b"))
	abc := newSession("abc", inWorkspace("/a/b/c"), fromSource("work", "team"))
	sibling := newSession("abx", inWorkspace("/a/bc"), fromProvider(core.ProviderCodex))
	sub := newSession("sub", inWorkspace("/a/b"), subagentOf(ab))
	dAB := newDoc(ab, "1", core.TypeMessage, "kestrel report", at(t0), withRole(core.RoleUser))
	dABC := newDoc(abc, "1", core.TypeMessage, "kestrel report", at(t0.Add(time.Hour)),
		withFiles("/a/b/c/main.go"))
	dSib := newDoc(sibling, "1", core.TypeMessage, "kestrel report", at(t0.Add(2*time.Hour)))
	dSub := newDoc(sub, "1", core.TypeToolCall, "kestrel report", at(t0.Add(3*time.Hour)),
		withRole(core.RoleTool))
	dSub.Event.Tool = "Grep"
	r := openIndex(t, []Doc{dAB, dABC, dSib, dSub})

	tests := []struct {
		name string
		q    Query
		want []Doc
	}{
		{"none", Query{}, []Doc{dAB, dABC, dSib, dSub}},
		{"workspace prefix", Query{Filter: core.Filter{Workspace: "/a/b"}}, []Doc{dAB, dABC, dSub}},
		{"workspace trailing slash", Query{Filter: core.Filter{Workspace: "/a/b/"}}, []Doc{dAB, dABC, dSub}},
		{"workspace leaf", Query{Filter: core.Filter{Workspace: "/a/b/c"}}, []Doc{dABC}},
		{"workspace sibling", Query{Filter: core.Filter{Workspace: "/a/bc"}}, []Doc{dSib}},
		{"workspace root", Query{Filter: core.Filter{Workspace: "/"}}, []Doc{dAB, dABC, dSib, dSub}},
		{"provider", Query{Filter: core.Filter{Providers: []string{core.ProviderCodex}}}, []Doc{dSib}},
		{"providers", Query{Filter: core.Filter{Providers: []string{core.ProviderCodex, core.ProviderClaude}}}, []Doc{dAB, dABC, dSib, dSub}},
		{"since", Query{Filter: core.Filter{Since: t0.Add(time.Hour)}}, []Doc{dABC, dSib, dSub}},
		{"until exclusive", Query{Filter: core.Filter{Until: t0.Add(time.Hour)}}, []Doc{dAB}},
		{"since until", Query{Filter: core.Filter{Since: t0.Add(time.Hour), Until: t0.Add(3 * time.Hour)}}, []Doc{dABC, dSib}},
		{"roles", Query{Filter: core.Filter{Roles: []core.Role{core.RoleUser, core.RoleTool}}}, []Doc{dAB, dSub}},
		{"sessions", Query{Filter: core.Filter{Sessions: []core.SessionID{abc.ID, sub.ID}}}, []Doc{dABC, dSub}},
		{"primary only", Query{Filter: core.Filter{PrimaryOnly: true}}, []Doc{dAB, dABC, dSib}},
		{"source root", Query{Filter: core.Filter{SourceRoots: []string{"work"}}}, []Doc{dABC}},
		{"source group or root", Query{Filter: core.Filter{SourceRoots: []string{"nope"}, SourceGroups: []string{"team"}}}, []Doc{dABC}},
		{"files", Query{Filter: core.Filter{Files: []string{"main.go"}}}, []Doc{dABC}},
		{"full path", Query{Filter: core.Filter{Files: []string{"/a/b/c/main.go"}}}, []Doc{dABC}},
		{"root sessions", Query{Filter: core.Filter{RootSessions: []core.SessionID{ab.ID}}}, []Doc{dAB, dSub}},
		{"combined", Query{Filter: core.Filter{Workspace: "/a", PrimaryOnly: true, Since: t0.Add(time.Minute)}}, []Doc{dABC, dSib}},
		{"calls scope", Query{Scope: core.ScopeCalls}, []Doc{dSub}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.q.Text = "kestrel"
			sameSet(t, find(t, r, tt.q), tt.want...)
		})
	}
	t.Run("empty text is newest first, grouped", func(t *testing.T) {
		// dSub is newest, so its root group (with dAB) ranks first and the
		// equally scored primary dAB leads it.
		hits := find(t, r, Query{Limit: 10, Filter: core.Filter{Workspace: "/a/b"}})
		want := []core.EventID{dAB.Event.ID, dABC.Event.ID, dSub.Event.ID}
		if got := ids(hits); !reflect.DeepEqual(got, want) {
			t.Fatalf("order %v", describe(hits))
		}
	})
}

func TestCodeAwareMatching(t *testing.T) {
	s := newSession("code")
	call := newDoc(s, "call", core.TypeMessage, "then s.parseConfig(opts) returns early")
	snake := newDoc(s, "snake", core.TypeMessage, "def parse_config(path):")
	pascal := newDoc(s, "pascal", core.TypeMessage, "type ParseConfig struct{}")
	loose := newDoc(s, "loose", core.TypeMessage, "we parse a config file")
	path := newDoc(s, "path", core.TypeToolCall, "Edit", withFiles("/repo/internal/store/index.go"))
	other := newDoc(s, "other", core.TypeMessage, "the store index is rebuilt")
	all := []Doc{call, snake, pascal, loose, path, other}
	r := openIndex(t, all)

	tests := []struct {
		query string
		want  []Doc
		first Doc
	}{
		{"parseConfig", []Doc{call, snake, pascal}, Doc{}},
		{"ParseConfig", []Doc{call, snake, pascal}, Doc{}},
		{"parse_config", []Doc{call, snake, pascal}, snake},
		{"s.parseConfig(", []Doc{call}, call},
		{"index.go", []Doc{path}, path},
		{"internal/store/index.go", []Doc{path, other}, path},
		{"/repo/internal/store/index.go", []Doc{path, other}, path},
		{"parse", []Doc{call, snake, pascal, loose}, Doc{}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits := find(t, r, Query{Text: tt.query, Limit: 50})
			sameSet(t, hits, tt.want...)
			if tt.first.Event != nil && hits[0].EventID != tt.first.Event.ID {
				t.Fatalf("first hit %v, want %s", describe(hits), tt.first.Event.ID)
			}
		})
	}
	t.Run("quotes are a phrase", func(t *testing.T) {
		// Its words next to each other in the text (parse_config is the
		// words parse and config); the identifiers hold one word.
		sameSet(t, find(t, r, Query{Text: `"parse config"`}), snake)
	})
	t.Run("only stop words", func(t *testing.T) {
		for _, text := range []string{"the a of", "!!! ...", "-", `"of the"`, "-parse"} {
			if _, err := r.Search(context.Background(), Query{Text: text}); !errors.Is(err, ErrNoSearchableTerms) {
				t.Errorf("%q: err %v, want ErrNoSearchableTerms", text, err)
			}
		}
	})
}

func TestExactTokensRankFirst(t *testing.T) {
	var docs []Doc
	for i, s := range []string{"a", "b", "c", "d", "e", "f"} {
		text := "commit build failed build failed commit again"
		docs = append(docs, newDoc(newSession("noise-"+s), "n", core.TypeMessage, text,
			at(t0.Add(time.Duration(i)*time.Minute))))
	}
	target := newSession("target")
	hash := newDoc(target, "hash", core.TypeToolOutput, padding(400)+" commit 3fa9c2e1b7 landed")
	code := newDoc(target, "code", core.TypeToolOutput, padding(400)+" error[E0308]: mismatched types build failed")
	path := newDoc(target, "path", core.TypeToolOutput, padding(400)+" build failed", withFiles("/r/pkg/deep/walker.go"))
	idDoc := newDoc(target, "id", core.TypeToolOutput, "nothing special build failed")
	sesDoc := newDoc(newSession("by-session"), "s", core.TypeToolOutput, "build failed elsewhere")
	docs = append(docs, hash, code, path, idDoc, sesDoc)
	r := openIndex(t, docs)

	tests := []struct {
		query string
		want  Doc
	}{
		{"commit build failed 3fa9c2e1b7", hash},
		{"commit build failed E0308", code},
		{"commit build failed walker.go", path},
		{"commit build failed pkg/deep/walker.go", path},
		{"build failed " + idDoc.Event.ID.String(), idDoc},
		{"build failed " + sesDoc.Session.ID.String(), sesDoc},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits := find(t, r, Query{Text: tt.query})
			if len(hits) == 0 || hits[0].EventID != tt.want.Event.ID {
				t.Fatalf("first hit of %v, want %s", describe(hits), tt.want.Event.ID)
			}
		})
	}
}

// padding returns n distinct filler words, making a document long (and so
// weakly scored) without matching anything.
func padding(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "filler%d ", i)
	}
	return b.String()
}

func TestGroupingThroughIndex(t *testing.T) {
	root := newSession("root")
	child := newSession("child", subagentOf(root))
	other := newSession("other")
	strong := newDoc(child, "strong", core.TypeMessage, "heron heron heron heron")
	weak := newDoc(root, "weak", core.TypeMessage, "heron plus many other unrelated words in this longer message body")
	near := newDoc(child, "near", core.TypeMessage, "heron heron")
	third := newDoc(other, "o", core.TypeMessage, "heron once in a long sentence of many more words than needed here")
	r := openIndex(t, []Doc{strong, weak, near, third})

	hits := find(t, r, Query{Text: "heron"})
	if len(hits) != 4 {
		t.Fatalf("got %v", describe(hits))
	}
	if hits[0].RootSessionID == hits[1].RootSessionID {
		t.Fatalf("second hit repeats the first group before the other group: %v", describe(hits))
	}
	if hits[0].EventID != strong.Event.ID {
		t.Fatalf("the much stronger subagent hit should lead: %v", describe(hits))
	}
	prim := find(t, r, Query{Text: "heron", Filter: core.Filter{PrimaryOnly: true}})
	sameSet(t, prim, weak, third)
}

func TestSuperseded(t *testing.T) {
	s := newSession("sup")
	a := newDoc(s, "a", core.TypeMessage, "osprey alpha")
	b := newDoc(s, "b", core.TypeMessage, "osprey beta")
	root := t.TempDir()
	old := build(t, root, []Doc{a, b}, BuildOptions{Shards: 1})
	a2 := a
	a2.Event = &core.Event{}
	*a2.Event = *a.Event
	a2.Event.Text = "osprey alpha revised"
	a2.Chunk = objects.Hash([]byte("revised chunk"))
	newer := build(t, root, []Doc{a2}, BuildOptions{Shards: 1})
	tomb := func(shard string, id core.EventID) bool { return shard == old[0].Name && id == a.Event.ID }

	r, err := Open(root, append(names(old), names(newer)...), WithSuperseded(tomb), eventsOf([]Doc{a, b, a2}))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	hits := find(t, r, Query{Text: "osprey"})
	if len(hits) != 2 {
		t.Fatalf("want the live a and b, got %v", describe(hits))
	}
	for _, h := range hits {
		if h.EventID == a.Event.ID && h.Origin != newer[0].Name {
			t.Fatalf("superseded copy returned from shard %s", h.Origin)
		}
	}
	dropB := func(_ string, id core.EventID) bool { return id == b.Event.ID }
	sameSet(t, find(t, r, Query{Text: "osprey", Superseded: dropB}), a2)

	h, ok, err := r.Lookup(a.Event.ID)
	if err != nil || !ok || h.Origin != newer[0].Name {
		t.Fatalf("Lookup = %+v, %v, %v; want the copy in %s", h, ok, err, newer[0].Name)
	}
}

func TestLookup(t *testing.T) {
	s := newSession("look", inWorkspace("/x/y"), fromProvider(core.ProviderCodex))
	ts := t0.Add(1234567891 * time.Nanosecond)
	d := newDoc(s, "k", core.TypeCommandStart, "go test ./...", at(ts), withRole(core.RoleTool))
	r := openIndex(t, []Doc{d})
	h, ok, err := r.Lookup(d.Event.ID)
	if err != nil || !ok {
		t.Fatalf("Lookup: %v %v", ok, err)
	}
	want := core.Hit{EventID: d.Event.ID, SessionID: s.ID, RootSessionID: s.ID, EventType: core.TypeCommandStart,
		Role: core.RoleTool, Provider: core.ProviderCodex, Workspace: "/x/y", Timestamp: ts,
		Chunk: d.Chunk, Origin: h.Origin, Score: h.Score}
	if h != want {
		t.Fatalf("Lookup =\n%+v\nwant\n%+v", h, want)
	}
	if _, ok, err := r.Lookup(core.NewEventID(s.ID, "missing")); ok || err != nil {
		t.Fatalf("Lookup(missing) = %v, %v", ok, err)
	}
}

// TestAllWordsFirst checks the narrow query of textQueries: when enough
// documents match every word of the text to fill the candidate window,
// candidates come from them alone (a document with one word repeated never
// displaces them, and Total counts them); with fewer, documents matching
// any word fill the results.
func TestAllWordsFirst(t *testing.T) {
	var docs []Doc
	both := map[core.EventID]bool{}
	for i := range minCandidates + 20 {
		d := newDoc(newSession(fmt.Sprintf("both-%d", i)), "b", core.TypeMessage,
			padding(200)+" the flaky timeout again", at(t0.Add(time.Duration(i)*time.Second)))
		both[d.Event.ID] = true
		docs = append(docs, d)
	}
	for i := range 30 {
		docs = append(docs, newDoc(newSession(fmt.Sprintf("one-%d", i)), "o", core.TypeMessage, "flaky flaky flaky flaky"))
	}
	rare := newDoc(newSession("rare"), "r", core.TypeMessage, "a quasar and a flaky timeout")
	docs = append(docs, rare)
	r := openIndex(t, docs)

	res, err := r.Search(context.Background(), Query{Text: "flaky timeout", Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != uint64(len(both)+1) || len(res.Hits) != 20 {
		t.Fatalf("total %d, %d hits; want %d matching both words", res.Total, len(res.Hits), len(both)+1)
	}
	for _, h := range res.Hits {
		if !both[h.EventID] && h.EventID != rare.Event.ID {
			t.Fatalf("hit %s matches one word only", h.EventID)
		}
	}
	// Fewer documents than the window match both words: the rest match one.
	res, err = r.Search(context.Background(), Query{Text: "flaky quasar", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hits[0].EventID != rare.Event.ID || res.Total != uint64(len(docs)) {
		t.Fatalf("first %s total %d; want the one document with both words first and every flaky one counted",
			res.Hits[0].EventID, res.Total)
	}
	if len(res.Hits) != 50 {
		t.Fatalf("%d hits; documents with one word should fill the page", len(res.Hits))
	}
}

// Time bounds across days: the day terms select whole UTC days and the exact
// bound is checked on each candidate, so an event on a boundary day outside
// the bound is dropped and one without a time passes no bound; empty text
// orders by the sortable time term, newest first, across days.
func TestTimeBoundsAcrossDays(t *testing.T) {
	s := newSession("days")
	day := 24 * time.Hour
	d1 := newDoc(s, "1", core.TypeMessage, "osprey log", at(t0.Add(-time.Minute)))
	d2 := newDoc(s, "2", core.TypeMessage, "osprey log", at(t0.Add(day+time.Hour)))
	d3 := newDoc(s, "3", core.TypeMessage, "osprey log", at(t0.Add(2*day+23*time.Hour)))
	d4 := newDoc(s, "4", core.TypeMessage, "osprey log", at(t0.Add(40*day)))
	none := newDoc(s, "5", core.TypeMessage, "osprey log")
	none.Event.Timestamp = time.Time{}
	r := openIndex(t, []Doc{d1, d2, d3, d4, none})
	tests := []struct {
		name string
		q    Query
		want []Doc
	}{
		{"no bound", Query{}, []Doc{d1, d2, d3, d4, none}},
		{"since mid-day", Query{Filter: core.Filter{Since: t0.Add(day + 2*time.Hour)}}, []Doc{d3, d4}},
		{"since exact", Query{Filter: core.Filter{Since: t0.Add(day + time.Hour)}}, []Doc{d2, d3, d4}},
		{"until mid-day", Query{Filter: core.Filter{Until: t0.Add(2*day + 22*time.Hour)}}, []Doc{d1, d2}},
		{"until exact is exclusive", Query{Filter: core.Filter{Until: t0.Add(day + time.Hour)}}, []Doc{d1}},
		{"window", Query{Filter: core.Filter{Since: t0, Until: t0.Add(3 * day)}}, []Doc{d2, d3}},
		{"empty window", Query{Filter: core.Filter{Since: t0.Add(3 * day), Until: t0.Add(39 * day)}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.q.Text = "osprey"
			sameSet(t, find(t, r, tt.q), tt.want...)
		})
	}
	t.Run("empty text newest first", func(t *testing.T) {
		got := ids(find(t, r, Query{Limit: 10}))
		want := []core.EventID{d4.Event.ID, d3.Event.ID, d2.Event.ID, d1.Event.ID, none.Event.ID}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("order %v, want %v", got, want)
		}
	})
}

// TestTotalSaysWhenItIsALowerBound: a search reads only the best groups,
// so when matching groups are left unread the total is a lower bound
// (each unread group counts one event) and says so; when every matching
// group is read it is the number of matching events. The same holds for
// a search without text, read newest first.
func TestTotalSaysWhenItIsALowerBound(t *testing.T) {
	docs := manyDocs(3000) // one group per event: each has a chunk of its own
	r := openIndex(t, docs)
	ctx := context.Background()
	res, err := r.Search(ctx, Query{Text: "walrus", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalExact || res.Total != uint64(len(docs)) {
		t.Fatalf("walrus over %d groups: total %d, exact %v; want %d as a lower bound", len(docs), res.Total,
			res.TotalExact, len(docs))
	}
	res, err = r.Search(ctx, Query{Text: "walrus 1234", Limit: 1}) // a limit it fills: no fallback to any word
	if err != nil {
		t.Fatal(err)
	}
	if !res.TotalExact || res.Total != 1 || len(res.Hits) != 1 {
		t.Fatalf("walrus 1234: total %d, exact %v, %d hits; want exactly 1", res.Total, res.TotalExact, len(res.Hits))
	}
	res, err = r.Search(ctx, Query{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalExact || res.Total != uint64(len(docs)) {
		t.Fatalf("no text: total %d, exact %v; want %d as a lower bound", res.Total, res.TotalExact, len(docs))
	}
}

// TestParallelExpansionMatchesSequential: a window's groups are scored in
// parallel, and the hits, their order and the totals are those of scoring
// them one by one (GOMAXPROCS 1 runs a single worker).
func TestParallelExpansionMatchesSequential(t *testing.T) {
	words := []string{"kestrel", "harbor", "lantern", "quartz", "meadow", "falcon"}
	var docs []Doc
	for s := range 80 {
		sess := newSession(fmt.Sprintf("par-%02d", s))
		for e := range 12 {
			// Varying repeats of the words give every group a different
			// score and many events per group to score.
			var b strings.Builder
			for w, word := range words {
				for range (s*7 + e*3 + w) % 4 {
					b.WriteString(word + " ")
				}
			}
			fmt.Fprintf(&b, "filler %d of %d", e, s)
			docs = append(docs, newDoc(sess, fmt.Sprintf("e%d", e), core.TypeMessage, b.String()))
		}
	}
	r := openIndex(t, docs)
	queries := []Query{
		{Text: "kestrel harbor", Limit: 50},
		{Text: "lantern OR quartz", Limit: 200},
		{Text: "meadow -falcon", Limit: 30},
		{Text: "\"kestrel harbor\"", Limit: 40},
		{Limit: 60}, // no text: newest first
	}
	run := func(procs int) []Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []Result
		for _, q := range queries {
			res, err := r.Search(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res)
		}
		return out
	}
	one := run(1)
	for round := range 5 {
		many := run(4)
		for i, q := range queries {
			if len(one[i].Hits) == 0 {
				t.Fatalf("%q found nothing", q.Text)
			}
			if !reflect.DeepEqual(one[i], many[i]) {
				t.Fatalf("round %d, %q: parallel scoring gave %v (total %d), one by one %v (total %d)", round, q.Text,
					describe(many[i].Hits), many[i].Total, describe(one[i].Hits), one[i].Total)
			}
		}
	}
}
