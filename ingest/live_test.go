package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ctx/core"
	"ctx/ingest"
	"ctx/internal/corpus"
	"ctx/sources/redact"
)

// TestLivePassesStoreWhatAnImportStores grows the longest transcript of a
// history pass after pass, as an agent writes it (appended records, a last
// line caught half written, the file replaced by a copy of itself), and
// imports it after each step twice: into one store the daemon's way, whose
// passes go on with the parse held open, and into another parsing every
// changed file whole. Both stores must hold the same
// tree (every session object the same, chunk for chunk) and cursors, and
// most passes must have gone on from where the last one stopped.
// Both providers that hold a parse open, Claude Code and Codex, are grown.
func TestLivePassesStoreWhatAnImportStores(t *testing.T) {
	defer ingest.SetLiveMinBytes(64 << 10)()
	t.Run(core.ProviderClaude, func(t *testing.T) { livePasses(t, core.ProviderClaude, filepath.Join(".claude", "projects")) })
	t.Run(core.ProviderCodex, func(t *testing.T) { livePasses(t, core.ProviderCodex, filepath.Join(".codex", "sessions")) })
}

// livePasses grows the largest transcript of provider's, under dir of the
// home, as TestLivePassesStoreWhatAnImportStores says.
func livePasses(t *testing.T, provider, dir string) {
	home := filepath.Join(t.TempDir(), "home")
	if _, err := corpus.Generate(home, corpus.Options{Events: 3000, Seed: 3, Providers: []string{provider}}); err != nil {
		t.Fatal(err)
	}
	path := largestSession(t, filepath.Join(home, dir))
	if _, err := corpus.Append(path, 2500, 1); err != nil { // past the parse's window of pending events
		t.Fatal(err)
	}
	liveStore, wholeStore := filepath.Join(t.TempDir(), "live"), filepath.Join(t.TempDir(), "whole")
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	ctx := context.Background()
	run := func(store string, live bool) *ingest.Report {
		t.Helper()
		opts := ingest.Options{Home: store, Env: env, Sources: automatic(), Version: "test", Deferred: true, Redactor: redact.New()}
		if !live {
			opts.Sources = wholeSources()
		}
		rep, err := ingest.Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	run(liveStore, true)
	run(wholeStore, false)
	continued := 0
	var rest []byte // the half of a record not yet written
	for round := range 12 {
		switch {
		case rest != nil:
			appendBytes(t, path, rest)
			rest = nil
		case round == 7: // replaced by a copy of itself: another file
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path+".tmp", data, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".tmp", path); err != nil {
				t.Fatal(err)
			}
			if _, err := corpus.Append(path, 10, int64(round)); err != nil {
				t.Fatal(err)
			}
		default:
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := corpus.Append(path, 5+round*9, int64(round)); err != nil {
				t.Fatal(err)
			}
			if round%4 == 1 { // the last record caught half written
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				cut := fi.Size() + (int64(len(data))-fi.Size())*2/3
				for data[cut-1] == '\n' {
					cut--
				}
				rest = data[cut:]
				if err := os.Truncate(path, cut); err != nil {
					t.Fatal(err)
				}
			}
		}
		rep := run(liveStore, true)
		continued += rep.FilesContinued
		run(wholeStore, false)
		sameTrees(t, round, liveStore, wholeStore)
	}
	if continued < 8 {
		t.Fatalf("%d of 12 passes went on with the parse held open", continued)
	}
	assertNoDuplicateHits(t, liveStore)

	// Forgotten, the session is not stored again by a pass that holds its
	// parse open.
	var id core.SessionID
	_, _, _, _, tree := activeTree(t, liveStore)
	for _, e := range tree.Sessions {
		if e.SourceKey == path {
			id = e.Session
		}
	}
	opts := ingest.Options{Home: liveStore, Env: env, Sources: automatic(), Version: "test", Deferred: true}
	if _, err := ingest.Forget(ctx, opts, ingest.ForgetRequest{Sessions: []core.SessionID{id}}); err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Append(path, 20, 99); err != nil {
		t.Fatal(err)
	}
	if rep := run(liveStore, true); rep.FilesContinued != 0 {
		t.Fatalf("a pass went on with a forgotten session's parse")
	}
	_, _, _, _, tree = activeTree(t, liveStore)
	if _, ok := tree.Find(id); ok {
		t.Fatal("a forgotten session was stored again")
	}
}

func appendBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// sameTrees fails unless the two stores' active generations hold the same
// session objects and the same cursors.
func sameTrees(t *testing.T, round int, a, b string) {
	t.Helper()
	_, _, _, _, ta := activeTree(t, a)
	_, _, _, _, tb := activeTree(t, b)
	if len(ta.Sessions) != len(tb.Sessions) {
		t.Fatalf("round %d: %d sessions against %d", round, len(ta.Sessions), len(tb.Sessions))
	}
	for i := range ta.Sessions {
		if ea, eb := ta.Sessions[i], tb.Sessions[i]; !reflect.DeepEqual(ea, eb) {
			t.Fatalf("round %d: session %s:\n%+v\nagainst\n%+v", round, ea.Session, ea, eb)
		}
	}
	if keptGeneration(t, a).Cursors != keptGeneration(t, b).Cursors {
		t.Fatalf("round %d: the cursors differ", round)
	}
}
