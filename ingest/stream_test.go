package ingest_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	sharedfx "ctx/internal/fixtures"
	"ctx/query"
	"ctx/refs"
	"ctx/sources"
)

// wholeOnly hides a provider's ParseStream: the import parses its files
// whole, as it did before sessions were streamed.
type wholeOnly struct{ core.Provider }

// wholeSources is automatic() with every provider parsing whole.
func wholeSources() []core.Source {
	var out []core.Source
	for _, p := range sources.Builtin() {
		out = append(out, core.Source{Kind: core.KindAutomatic, Provider: wholeOnly{p}})
	}
	return out
}

// sameImport fails unless the two stores hold the same generation: the
// same tree (so the same session objects, chunk lists, chunks and
// digests, all named by their content), cursors and tombstones, as many
// indexed events, and the same answers to searches.
func sameImport(t *testing.T, streamed, whole string, a, b *ingest.Report) {
	t.Helper()
	if a.EventsRead != b.EventsRead || a.EventsIndexed != b.EventsIndexed || a.SessionsWrote != b.SessionsWrote || a.FilesRead != b.FilesRead {
		t.Fatalf("reports differ: streamed read %d indexed %d sessions %d files %d, whole %d %d %d %d",
			a.EventsRead, a.EventsIndexed, a.SessionsWrote, a.FilesRead, b.EventsRead, b.EventsIndexed, b.SessionsWrote, b.FilesRead)
	}
	if !reflect.DeepEqual(a.Problems, b.Problems) {
		t.Fatalf("problems differ:\n%v\n%v", a.Problems, b.Problems)
	}
	ga, gb := activeGeneration(t, streamed), activeGeneration(t, whole)
	if ga.Tree != gb.Tree || ga.Cursors != gb.Cursors || !reflect.DeepEqual(ga.Tombstones, gb.Tombstones) ||
		ga.Number != gb.Number || ga.Events != gb.Events || ga.Sessions != gb.Sessions {
		t.Fatalf("generations differ:\nstreamed %+v\nwhole    %+v", ga, gb)
	}
	docs := func(g *refs.Generation) (n int) {
		for _, s := range g.Shards {
			n += s.Docs
		}
		return n
	}
	if docs(ga) != docs(gb) {
		t.Fatalf("shards index %d events streamed, %d whole", docs(ga), docs(gb))
	}
	for _, q := range []string{"test", "error", "file", "session", "late", "prompt"} {
		if ha, hb := searchHits(t, streamed, q), searchHits(t, whole, q); !reflect.DeepEqual(ha, hb) {
			t.Fatalf("search %q: streamed %v, whole %v", q, ha, hb)
		}
	}
}

func searchHits(t *testing.T, store, q string) []string {
	t.Helper()
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Results {
		out = append(out, fmt.Sprintf("%s %.6f", h.CtxEventID, h.Score))
	}
	return out
}

// lateRollout writes a Codex rollout whose MCP call gets its output after
// more events than the parser keeps open, which makes the import parse it
// whole.
func lateRollout(t *testing.T, home string) {
	t.Helper()
	const sid = "0c0c0c0c-1111-2222-3333-555555555555"
	var b strings.Builder
	rec := func(i int, payload string) {
		fmt.Fprintf(&b, `{"timestamp":"2026-03-01T00:%02d:%02d.000Z","type":"response_item","payload":%s}`+"\n", i/60%60, i%60, payload)
	}
	b.WriteString(`{"timestamp":"2026-03-01T00:00:00.000Z","type":"session_meta","payload":{"id":"` + sid + `","cwd":"/w","timestamp":"2026-03-01T00:00:00.000Z"}}` + "\n")
	rec(0, `{"type":"function_call","name":"mcp__docs__search","arguments":"{\"q\":\"late\"}","call_id":"m1"}`)
	for i := range 1500 {
		rec(i, fmt.Sprintf(`{"type":"message","role":"user","content":[{"type":"input_text","text":"prompt %d"}]}`, i))
	}
	rec(1500, `{"type":"function_call_output","call_id":"m1","output":"[{\"type\":\"text\",\"text\":\"late result\"}]"}`)
	dir := filepath.Join(home, ".codex", "sessions", "2026", "03", "01")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rollout-2026-03-01T00-00-00-"+sid+".jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// lateSession writes a Claude Code session whose streamed message gets a
// block after more events than the parser keeps open, which makes the
// import parse it whole.
func lateSession(t *testing.T, home string) {
	t.Helper()
	const sid = "0c0c0c0c-1111-2222-3333-444444444444"
	var b strings.Builder
	rec := func(s string) { b.WriteString(s + "\n") }
	asst := func(uuid, text string) string {
		return `{"type":"assistant","uuid":"` + uuid + `","sessionId":"` + sid + `","message":{"id":"msg_late","model":"m","content":[{"type":"text","text":"` + text + `"}],"usage":{"input_tokens":1,"output_tokens":2}}}`
	}
	rec(asst("a0", "early part"))
	for i := range 1500 {
		rec(fmt.Sprintf(`{"type":"user","uuid":"u%d","sessionId":"%s","cwd":"/w","message":{"role":"user","content":"prompt %d"}}`, i, sid, i))
	}
	rec(asst("a1", "late part"))
	dir := filepath.Join(home, ".claude", "projects", "-w")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The streamed import stores what the whole-session import stores: on the
// real fixtures and a generated corpus of each provider that streams
// (Claude Code's with a session parsed whole because a record reaches back
// too far), and after lines are appended to their sessions, where both
// rewrite only the tails.
func TestStreamedImportEqualsWhole(t *testing.T) {
	generate := func(t *testing.T, home, provider string) {
		if _, err := corpus.Generate(home, corpus.Options{Events: 12000, Seed: 4, Providers: []string{provider}}); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]func(t *testing.T, home string){
		"fixtures": func(t *testing.T, home string) {
			fx := sharedfx.Dir(t)
			sharedfx.Copy(t, filepath.Join(fx, "claude-code", "projects"), filepath.Join(home, ".claude", "projects"))
		},
		"corpus": func(t *testing.T, home string) {
			generate(t, home, core.ProviderClaude)
			lateSession(t, home)
		},
		"codex fixtures": func(t *testing.T, home string) {
			sharedfx.Copy(t, filepath.Join(sharedfx.Dir(t), "codex", "sessions"), filepath.Join(home, ".codex", "sessions"))
		},
		"codex corpus": func(t *testing.T, home string) {
			generate(t, home, core.ProviderCodex)
			lateRollout(t, home)
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			setup(t, home)
			env := core.Env{Home: home, Getenv: func(string) string { return "" }}
			streamed, whole := filepath.Join(t.TempDir(), "streamed"), filepath.Join(t.TempDir(), "whole")
			run := func(store string, srcs []core.Source) *ingest.Report {
				rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: env, Sources: srcs, Version: "test",
					Deferred: true})
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			sameImport(t, streamed, whole, run(streamed, automatic()), run(whole, wholeSources()))
			files := append(historyFiles(t, filepath.Join(home, ".claude"), ".jsonl"), historyFiles(t, filepath.Join(home, ".codex"), ".jsonl")...)
			for i, f := range files {
				if i%3 != 0 || strings.Contains(f, "0c0c0c0c") {
					continue
				}
				if _, err := corpus.Append(f, 150, int64(i)); err != nil {
					t.Fatal(err)
				}
			}
			a, b := run(streamed, automatic()), run(whole, wholeSources())
			if a.EventsIndexed == 0 || (strings.HasSuffix(name, "corpus") && a.EventsIndexed >= a.EventsRead/2) {
				t.Fatalf("the re-import indexed %d of %d events read: want only the tails", a.EventsIndexed, a.EventsRead)
			}
			sameImport(t, streamed, whole, a, b)
		})
	}
}

// An import whose shards are cut at MaxShardEvents holds the same
// generation and gives the same answers as one cut nowhere.
func TestShardBoundKeepsAnswers(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if _, err := corpus.Generate(home, corpus.Options{Events: 12000, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	run := func(store string, bound int) *ingest.Report {
		rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: env, Sources: automatic(),
			Version: "test", Deferred: true, MaxShardEvents: bound})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	const bound = 1500
	cut, whole := filepath.Join(t.TempDir(), "cut"), filepath.Join(t.TempDir(), "whole")
	sameImport(t, cut, whole, run(cut, bound), run(whole, 1<<30))
	gc, gw := activeGeneration(t, cut), activeGeneration(t, whole)
	if len(gc.Shards) < 12000/bound || len(gc.Shards) <= len(gw.Shards) {
		t.Fatalf("%d shards cut at %d events, %d uncut", len(gc.Shards), bound, len(gw.Shards))
	}
	for _, s := range gc.Shards {
		if s.Docs >= bound+core.ChunkSize {
			t.Fatalf("a shard of %d events, bound %d", s.Docs, bound)
		}
	}
}

// With [exclude] set, sessions still stream (and so hold bounded memory),
// and the store is the whole parse's: the same tree, and no object of an
// excluded session, even one whose workspace its first record does not
// name (the whole parse decides that one).
func TestStreamedImportWithExclusions(t *testing.T) {
	defer ingest.SetLiveMinBytes(2 << 20)() // the longest session only, grown past it below
	home := filepath.Join(t.TempDir(), "home")
	if _, err := corpus.Generate(home, corpus.Options{Events: 6000, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	const sid = "0e0e0e0e-1111-2222-3333-444444444444"
	var b strings.Builder // its workspace comes after more events than a parse holds pending
	for i := range 1200 {
		fmt.Fprintf(&b, `{"type":"user","uuid":"w%d","sessionId":"%s","message":{"role":"user","content":"no workspace yet %d"}}`+"\n", i, sid, i)
	}
	for i := range 300 {
		fmt.Fprintf(&b, `{"type":"user","uuid":"n%d","sessionId":"%s","cwd":"/home/dev/src/webapp","message":{"role":"user","content":"excluded words %d"}}`+"\n", i+1, sid, i)
	}
	dir := filepath.Join(home, ".claude", "projects", "-home-dev-src-webapp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	longest := largestSession(t, filepath.Join(home, ".claude", "projects", "-home-dev-src-ledger"))
	if _, err := corpus.Append(longest, 2500, 1); err != nil { // past the parse's window of pending events
		t.Fatal(err)
	}
	excluded := func(s *core.Session) bool { return strings.HasPrefix(s.Workspace, "/home/dev/src/webapp") }
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	run := func(store string, srcs []core.Source) *ingest.Report {
		rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: env, Sources: srcs, Version: "test",
			Deferred: true, Exclude: excluded})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	streamed, whole := filepath.Join(t.TempDir(), "streamed"), filepath.Join(t.TempDir(), "whole")
	sameImport(t, streamed, whole, run(streamed, automatic()), run(whole, wholeSources()))
	_, _, _, _, tree := activeTree(t, streamed)
	providers := map[string]int{}
	for _, e := range tree.Sessions {
		if strings.Contains(e.SourceKey, "webapp") || strings.Contains(e.SourceKey, sid) {
			t.Fatalf("an excluded session was stored: %s", e.SourceKey)
		}
		providers[e.Provider]++
	}
	if providers[core.ProviderClaude] == 0 || providers[core.ProviderCodex] == 0 {
		t.Fatalf("sessions stored by provider: %v", providers)
	}
	count := func(store string) int {
		n := 0
		objects := filepath.Join(store, "objects")
		_ = filepath.WalkDir(objects, func(p string, d fs.DirEntry, err error) error {
			if rel, _ := filepath.Rel(objects, p); err == nil && !d.IsDir() && !strings.HasPrefix(rel, "tmp"+string(filepath.Separator)) {
				n++
			}
			return err
		})
		if n == 0 {
			t.Fatalf("no object in %s", objects)
		}
		return n
	}
	if a, b := count(streamed), count(whole); a != b {
		t.Fatalf("the streamed store holds %d objects, the whole one %d: something of an excluded session was written", a, b)
	}
	// The daemon's next pass goes on with the parse it held open.
	if _, err := corpus.Append(longest, 40, 2); err != nil {
		t.Fatal(err)
	}
	a := run(streamed, automatic())
	if a.FilesContinued != 1 {
		t.Fatalf("%d files went on from where the last pass stopped, want 1", a.FilesContinued)
	}
	sameImport(t, streamed, whole, a, run(whole, wholeSources()))
}
