package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/query"
	"ctx/sources/redact"
	"ctx/sources/reported"
)

const secret = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB"

type handoffEnv struct {
	h     *Handoff
	store string
	root  string
	clock time.Time
}

func newHandoffEnv(t *testing.T, set HandoffSettings) *handoffEnv { return newHandoffEnvB(t, set) }

func newHandoffEnvB(t testing.TB, set HandoffSettings) *handoffEnv {
	t.Helper()
	e := &handoffEnv{store: filepath.Join(t.TempDir(), "store"), root: t.TempDir(),
		clock: time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)}
	os.WriteFile(filepath.Join(e.root, "README.md"), []byte("# demo\n"), 0o644)
	pool := query.NewPool(e.store)
	t.Cleanup(func() { pool.Close() })
	read := func(_ context.Context, fn func(*query.Reader) error) error {
		if _, err := os.Stat(filepath.Join(e.store, "refs")); err != nil {
			return query.Errorf(query.CodeNoHistory, "nothing imported")
		}
		r, release, err := pool.Acquire()
		if err != nil {
			return err
		}
		defer release()
		return fn(r)
	}
	e.h = NewHandoff(HandoffOptions{Home: e.store, Version: "test", Settings: set, Read: read,
		Now: func() time.Time { e.clock = e.clock.Add(time.Second); return e.clock }})
	return e
}

func (e *handoffEnv) importInbox(t *testing.T) {
	t.Helper()
	env := core.Env{Getenv: func(k string) string { return map[string]string{"CTX_HOME": e.store}[k] }}
	_, err := ingest.Run(context.Background(), ingest.Options{Home: e.store, Env: env, Version: "test",
		Sources: []core.Source{{Kind: core.KindAutomatic, Provider: reported.New()}}, Redactor: redact.New()})
	if err != nil {
		t.Fatal(err)
	}
}

func (e *handoffEnv) search(t *testing.T, q string) []query.SearchHit {
	t.Helper()
	var hits []query.SearchHit
	err := e.h.opts.Read(context.Background(), func(r *query.Reader) error {
		res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 10})
		if err == nil {
			hits = res.Results
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func handoffCall() []byte {
	call := map[string]any{"summary": "Moved auth to hashed tokens; key " + secret, "thread": "Auth Refactor",
		"handoff": true, "state": "tokens work, CLI missing",
		"key_decisions":          []any{map[string]any{"decision": "hash tokens", "rationale": "a leaked file leaks nothing"}},
		"open_items":             []any{"ctx tokens list", "docs"},
		"gotchas":                []any{"the HTTP door reads the file per request"},
		"artifacts":              []any{map[string]any{"path": "bearer/bearer.go", "role": "implementation"}},
		"suggested_first_prompt": "Add ctx tokens list", "files_touched": []any{"bearer/bearer.go"},
		"reported_by": "human"}
	raw, _ := json.Marshal(call)
	return raw
}

func TestHandoffAcrossClientsAndImport(t *testing.T) {
	e := newHandoffEnv(t, DefaultHandoffSettings())
	a := Caller{Door: reported.DoorStdio, Client: reported.Client{Name: "claude-code", Version: "2.1"}, Conn: "a", Root: e.root}
	res, err := e.h.SaveSession(a, handoffCall())
	if err != nil {
		t.Fatal(err)
	}
	if res.Provenance.Harness != "claude-code" || !res.ThreadCreated || res.Redactions != 1 ||
		strings.Join(res.IgnoredFields, ",") != "reported_by" || res.Revision != 1 {
		t.Fatalf("save = %+v", res)
	}
	again, err := e.h.SaveSession(a, handoffCall())
	if err != nil || again.Revision != 2 || again.ReportedID != res.ReportedID || again.ThreadCreated {
		t.Fatalf("re-save = %+v, %v", again, err)
	}
	// Read-your-writes before any import: the workspace's sessions hold it.
	o, err := e.h.GetContext(context.Background(), a, "full")
	if err != nil || len(o.Sessions) != 1 || o.Sessions[0].SessionID != res.CtxSessionID {
		t.Fatalf("context sessions = %+v, %v", o.Sessions, err)
	}
	// Client B, another harness, resumes the thread by a misspelt name.
	cont, err := e.h.ContinueThread("auth refactr", 0)
	if err != nil {
		t.Fatal(err)
	}
	if cont.Thread != "Auth Refactor" || cont.Match != "fuzzy" || !cont.Assumed || cont.Handoff == nil {
		t.Fatalf("continue = %+v", cont)
	}
	p := cont.Handoff
	if p.From.Harness != "claude-code" || p.From.Door != reported.DoorStdio || p.From.ReportedBy != "agent" ||
		p.Package.SuggestedFirstPrompt != "Add ctx tokens list" || strings.Contains(p.Package.Summary, secret) {
		t.Fatalf("handoff = %+v", p)
	}
	if len(cont.Entries) != 1 || cont.Entries[0].Form != "detailed" || cont.Entries[0].Harness != "claude-code" {
		t.Fatalf("entries = %+v", cont.Entries)
	}
	list, _ := e.h.ListThreads()
	if len(list.Threads) != 1 || list.Threads[0].Sessions != 1 || list.Threads[0].LastSurface.Door != reported.DoorStdio {
		t.Fatalf("threads = %+v", list)
	}
	// The ordinary import makes it a searchable ctx-reported session with
	// both revisions, redacted.
	e.importInbox(t)
	hits := e.search(t, "hashed tokens")
	if len(hits) == 0 || hits[0].Provider != reported.Provider || hits[0].CtxSessionID != res.CtxSessionID {
		t.Fatalf("hits = %+v", hits)
	}
	if len(e.search(t, secret)) != 0 {
		t.Fatal("the secret is searchable")
	}
	var so *core.SessionObject
	err = e.h.opts.Read(context.Background(), func(r *query.Reader) (err error) {
		so, err = r.Session(reported.SessionID(res.ReportedID))
		return err
	})
	if err != nil || so.Session.EventCount != 2 {
		t.Fatalf("imported = %+v, %v", so, err)
	}
	// Removing it forgets it: out of search at once, and the next import
	// (which reads the inbox again) does not bring it back.
	if _, err := e.h.RemoveReport(context.Background(), res.CtxSessionID, Caller{Door: reported.DoorCLI}); err != nil {
		t.Fatal(err)
	}
	if hits := e.search(t, "hashed tokens"); len(hits) != 0 {
		t.Fatalf("removed still found: %+v", hits)
	}
	e.importInbox(t)
	if hits := e.search(t, "hashed tokens"); len(hits) != 0 {
		t.Fatalf("removed found again after an import: %+v", hits)
	}
	err = e.h.opts.Read(context.Background(), func(r *query.Reader) error {
		_, err := r.Session(reported.SessionID(res.ReportedID))
		if query.CodeOf(err) != query.CodeNotFound || !strings.Contains(err.Error(), "forgotten") {
			t.Fatalf("show of the removed session: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := e.h.ListReports(); len(rows.Sessions) != 0 {
		t.Fatalf("removed still listed: %+v", rows)
	}
}

func TestHandoffThreadsAddContinuesFromAndRateLimit(t *testing.T) {
	set := DefaultHandoffSettings()
	set.RateBurst, set.RatePerMinute = 2, 1
	e := newHandoffEnv(t, set)
	c := Caller{Door: reported.DoorHTTP, Client: reported.Client{Name: "Codex"}, Token: "tok_1", Conn: "s1", Root: e.root}
	first, err := e.h.SaveSession(c, []byte(`{"summary":"first part","thread":"billing"}`))
	if err != nil {
		t.Fatal(err)
	}
	// continues_from a reported session inherits its thread.
	second, err := e.h.Ingest(c, []byte(`{"ctxfile_ingest_schema":"2","source":{"harness":"aider","session_id":"x"},
		"session":{"summary":"second part","continues_from":"`+first.ReportedID+`"}}`))
	if err != nil || second.Thread == nil || *second.Thread != "billing" || second.Provenance.Harness != "aider" {
		t.Fatalf("ingest = %+v, %v", second, err)
	}
	// A flood: every call past the burst is refused and stores nothing;
	// every acknowledged one is in the inbox.
	for i := 0; i < 20; i++ {
		_, err = e.h.SaveSession(c, []byte(`{"summary":"flood"}`))
		var rl *reported.RateLimitError
		if !errors.As(err, &rl) || rl.RetryAfter <= 0 {
			t.Fatalf("flood call %d = %v", i, err)
		}
	}
	if recs, _ := reported.OpenInbox(e.store).Records(); len(recs) != 2 {
		t.Fatalf("inbox holds %d records, want the 2 acknowledged", len(recs))
	}
	if _, err := e.h.SaveSession(Caller{Door: reported.DoorCLI, Conn: "z"}, []byte(`{"summary":"x","continues_from":"ses_00000000000000000000000000000000"}`)); !errors.Is(err, reported.ErrInvalid) {
		t.Fatalf("unknown continues_from = %v", err)
	}
	cont, err := e.h.ContinueThread("", 0)
	if err != nil || cont.Thread != "billing" || cont.Match != "most_recent" || len(cont.Entries) != 2 ||
		!cont.Entries[0].At.Before(cont.Entries[1].At) {
		t.Fatalf("continue = %+v, %v", cont, err)
	}
	if _, err := e.h.AddToThread("billing", "ses_00000000000000000000000000000000", "cli"); query.CodeOf(err) != query.CodeNotFound {
		t.Fatalf("add unknown = %v", err)
	}
}
