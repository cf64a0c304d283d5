package reported

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/core"
)

func fieldsOf(err error) map[string]string {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	out := map[string]string{}
	for _, f := range ve.Errors {
		out[f.Field] = f.Code
	}
	return out
}

func TestDecodeSaveMinimalAndForged(t *testing.T) {
	s, err := DecodeSave([]byte(`{"summary":"did x","harness":"Codex","door":"mcp-http","provenance":{"reported_by":"human"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Report.Summary != "did x" || s.Harness != "codex" || strings.Join(s.Ignored, ",") != "door,provenance" {
		t.Fatalf("save = %+v ignored %v", s, s.Ignored)
	}
}

func TestDecodeSaveErrorsNameFields(t *testing.T) {
	long := strings.Repeat("x", MaxText+1)
	_, err := DecodeSave([]byte(`{"summary":"` + long + `","key_decisions":["a"],"colour":1,"open_items":"one"}`))
	got := fieldsOf(err)
	want := map[string]string{"summary": FieldTooLong, "key_decisions[0]": FieldWrongType, "colour": FieldUnknown,
		"open_items": FieldWrongType}
	if len(got) != len(want) {
		t.Fatalf("errors = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("errors = %v, want %v", got, want)
		}
	}
	if !errors.Is(err, ErrInvalid) {
		t.Fatal("not ErrInvalid")
	}
	if _, err := DecodeSave([]byte(`{}`)); fieldsOf(err)["summary"] != FieldRequired {
		t.Fatalf("missing summary: %v", err)
	}
}

// TestHandoffFollowingErrorsReachesValid plays an agent that adds exactly
// what each error names until the save is accepted.
func TestHandoffFollowingErrorsReachesValid(t *testing.T) {
	call := map[string]any{"summary": "moved auth to tokens", "handoff": true,
		"key_decisions": []any{map[string]any{"decision": "hash tokens"}},
		"artifacts":     []any{map[string]any{"path": "auth/tokens.go"}}}
	fixes := map[string]func(){
		"state": func() { call["state"] = "tokens work, CLI missing" },
		"key_decisions[0].rationale": func() {
			call["key_decisions"] = []any{map[string]any{"decision": "hash tokens", "rationale": "a leak of the file leaks nothing"}}
		},
		"open_items":             func() { call["open_items"] = []any{"CLI", "docs"} },
		"gotchas":                func() { call["gotchas"] = []any{"none found"} },
		"artifacts[0].role":      func() { call["artifacts"] = []any{map[string]any{"path": "auth/tokens.go", "role": "implementation"}} },
		"suggested_first_prompt": func() { call["suggested_first_prompt"] = "Add ctx tokens list" },
	}
	for round := 0; ; round++ {
		raw, _ := json.Marshal(call)
		_, err := DecodeSave(raw)
		if err == nil {
			if round != 1 {
				t.Fatalf("valid after %d rounds, want 1 (all errors in the first answer)", round)
			}
			return
		}
		errs := fieldsOf(err)
		if len(errs) == 0 || round > 3 {
			t.Fatalf("round %d: %v", round, err)
		}
		for f := range errs {
			fix, ok := fixes[f]
			if !ok {
				t.Fatalf("unexpected error for %s: %v", f, err)
			}
			fix()
		}
	}
}

func TestDecodeIngestStrict(t *testing.T) {
	ok := `{"ctxfile_ingest_schema":"2","source":{"harness":"aider","session_id":"s1"},"session":{"summary":"s","started_at":"2026-07-10T17:41:02Z"},"reported_by":"x"}`
	in, err := DecodeIngest([]byte(ok))
	if err != nil || in.Harness != "aider" || in.SessionID != "s1" || in.Report.StartedAt == nil || len(in.Ignored) != 1 {
		t.Fatalf("ingest = %+v, %v", in, err)
	}
	bad := `{"ctxfile_ingest_schema":2,"source":{"name":"x"},"session":{"summary":"","started_at":"yesterday"},"extra":true}`
	_, err = DecodeIngest([]byte(bad))
	got := fieldsOf(err)
	for _, f := range []string{"ctxfile_ingest_schema", "source.name", "source.harness", "session.summary", "session.started_at", "extra"} {
		if got[f] == "" {
			t.Fatalf("no error for %s: %v", f, got)
		}
	}
}

type upper struct{}

func (upper) String(s string) (string, int) {
	if strings.Contains(s, "sk-secret") {
		return strings.ReplaceAll(s, "sk-secret", "[REDACTED]"), 1
	}
	return s, 0
}

func TestInboxAppendRevisionsAndParse(t *testing.T) {
	home := t.TempDir()
	in := OpenInbox(home)
	id := NewID("conn-1")
	at := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
	prov := Provenance{ReportedBy: "agent", Door: DoorStdio, Client: Client{Name: "claude-code"}, Harness: "claude-code", Kind: KindSave}
	for i, sum := range []string{"first with sk-secret", "second"} {
		rec, err := in.Append(Record{Op: OpSave, ID: id, ReceivedAt: at.Add(time.Duration(i) * time.Minute), Workspace: "/w",
			Provenance: prov, Report: &Report{Summary: sum, FilesTouched: []string{"a.go"}}}, upper{})
		if err != nil || rec.Revision != i+1 {
			t.Fatalf("append %d: rev %d, %v", i, rec.Revision, err)
		}
	}
	fi, err := os.Stat(InboxPath(home))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("inbox mode = %v, %v", fi.Mode(), err)
	}
	if di, _ := os.Stat(InboxDir(home)); di.Mode().Perm() != 0o700 {
		t.Fatalf("inbox dir mode = %v", di.Mode())
	}
	files, _ := New().Discover(core.Env{Getenv: func(k string) string { return map[string]string{"CTX_HOME": home}[k] }})
	if len(files) != 1 {
		t.Fatalf("discover = %v", files)
	}
	res, err := New().Parse(files[0])
	if err != nil || len(res.Sessions) != 1 {
		t.Fatalf("parse = %+v, %v", res, err)
	}
	s := res.Sessions[0]
	if s.Session.ID != SessionID(id) || len(s.Events) != 2 || s.Session.Title != "second" || s.Session.Workspace != "/w" {
		t.Fatalf("session = %+v", s.Session)
	}
	if strings.Contains(s.Events[0].Text, "sk-secret") || !strings.Contains(s.Events[0].Text, "via mcp-stdio") {
		t.Fatalf("event 0 = %q", s.Events[0].Text)
	}
	if err := in.Remove(id, Provenance{Door: DoorCLI}, at); err != nil {
		t.Fatal(err)
	}
	if err := in.Remove("rep_none", Provenance{Door: DoorCLI}, at); !errors.Is(err, ErrNotFound) {
		t.Fatalf("remove unknown = %v", err)
	}
	res, _ = New().Parse(files[0])
	if len(res.Sessions) != 1 || len(res.Sessions[0].Events) != 0 {
		t.Fatalf("removed session = %+v", res.Sessions)
	}
}

func TestInboxConcurrentAppendsAcrossHandles(t *testing.T) {
	home := t.TempDir()
	var wg sync.WaitGroup
	for h := 0; h < 4; h++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := OpenInbox(home) // a handle per "process"
			for i := 0; i < 25; i++ {
				if _, err := in.Append(Record{Op: OpSave, ID: NewID("same"), Report: &Report{Summary: "s"}}, nil); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	recs, err := OpenInbox(home).Records()
	if err != nil || len(recs) != 100 {
		t.Fatalf("records = %d, %v", len(recs), err)
	}
	seen := map[int]bool{}
	for _, r := range recs {
		seen[r.Revision] = true
	}
	if len(seen) != 100 {
		t.Fatalf("revisions not unique: %d distinct", len(seen))
	}
}

func TestInboxTornLineIsLeft(t *testing.T) {
	home := t.TempDir()
	in := OpenInbox(home)
	if _, err := in.Append(Record{Op: OpSave, ID: "rep_a", Report: &Report{Summary: "s"}}, nil); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(InboxPath(home), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"ctx_reported":1,"op":"save","id":"rep_b"`)
	f.Close()
	recs, err := OpenInbox(home).Records()
	if err != nil || len(recs) != 1 {
		t.Fatalf("records = %d, %v", len(recs), err)
	}
}

func TestLimiter(t *testing.T) {
	l := NewLimiter(60, 2)
	now := time.Unix(1000, 0)
	if l.Allow("a", now) != nil || l.Allow("a", now) != nil {
		t.Fatal("burst refused")
	}
	err := l.Allow("a", now)
	var rl *RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter <= 0 || rl.RetryAfter > time.Second {
		t.Fatalf("third = %v", err)
	}
	if l.Allow("b", now) != nil {
		t.Fatal("another client refused")
	}
	if l.Allow("a", now.Add(time.Second)) != nil {
		t.Fatal("refused after the retry time")
	}
}
