package ingest_test

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"

	"ctx/core"
	"ctx/ingest"
	"ctx/query"
	"ctx/sources/redact"
)

// TestLongMessageRedactedAndFoundInPieces: a 1.5 MiB message is indexed in
// bounded pieces (index.maxIndexPiece). Secrets planted every 64 KiB in
// text without white space, so that a piece boundary falls inside one
// whatever the piece size, are all redacted in the store and unfindable;
// a word at the message's end, far past the first piece, finds it.
func TestLongMessageRedactedAndFoundInPieces(t *testing.T) {
	f := newFixture(t, 0)
	const step = 64 << 10
	var b strings.Builder
	b.WriteString("openingword ")
	var secrets []string
	for k := 1; k <= 24; k++ {
		for b.Len() < k*step-20 {
			b.WriteString("a-")
		}
		s := "ghp_" + strings.Repeat(string(rune('A'+k)), 18) + strings.Repeat("7", 18)
		secrets = append(secrets, s)
		b.WriteString("GITHUB_TOKEN=" + s + ";")
	}
	b.WriteString(" closingword")
	writeClaude(t, f.home, "s1", claudeUser("u1", "short neighbour"), claudeUser("u2", b.String()),
		claudeUser("u3", "another neighbour"))
	if _, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(),
		Sources: automatic(), Version: "test", Redactor: redact.New()}); err != nil {
		t.Fatal(err)
	}
	r, text := closingEvent(t, f.store)
	if !strings.HasPrefix(text, "openingword ") || !strings.HasSuffix(text, " closingword") {
		t.Fatalf("the store does not hold the whole message (%d bytes)", len(text))
	}
	if n := strings.Count(text, "[REDACTED:github-token]"); n != len(secrets) {
		t.Errorf("%d of %d secrets redacted", n, len(secrets))
	}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Fatalf("secret %s… survives in the store", s[:8])
		}
		res, err := r.Search(context.Background(), query.SearchRequest{Query: s})
		if err != nil || len(res.Results) != 0 {
			t.Fatalf("a search for secret %s… finds %d events (%v)", s[:8], len(res.Results), err)
		}
	}
}

// TestHugeMessageKeptWhole: a message past core.HugeRecord, with escapes
// of every kind, is stored byte for byte (unquoted in place, its chunk
// encoded in pieces, indexed from memory), found by its last word, and the
// heap's limit the import set while it was in flight is lifted after.
func TestHugeMessageKeptWhole(t *testing.T) {
	f := newFixture(t, 0)
	var b strings.Builder
	b.WriteString("openingword ")
	for b.Len() < core.HugeRecord+1<<20 {
		b.WriteString("line \"quoted\" \\ tab\there <html>&amp; é€𝄞 \u2028\n")
	}
	b.WriteString(" closingword")
	want := b.String()
	content, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	writeClaude(t, f.home, "s1", claudeUser("u1", "short neighbour"), claudeUser("u2", string(content[1:len(content)-1])),
		claudeUser("u3", "another neighbour"))
	before := debug.SetMemoryLimit(-1)
	if _, err := ingest.Run(context.Background(), ingest.Options{Home: f.store, Env: f.env(),
		Sources: automatic(), Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Fatalf("memory limit %d after the import, want %d as before", after, before)
	}
	if _, text := closingEvent(t, f.store); text != want {
		t.Fatalf("the store holds %d bytes of the message, not its %d bytes as written", len(text), len(want))
	}
}

// closingEvent opens the store, finds the one event holding "closingword"
// (the last word of a long message) and returns the reader and the event's
// text as the store holds it.
func closingEvent(t *testing.T, home string) (*query.Reader, string) {
	t.Helper()
	r, err := query.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	res, err := r.Search(context.Background(), query.SearchRequest{Query: "closingword"})
	if err != nil || len(res.Results) != 1 {
		t.Fatalf("the last word finds %d events (%v), want 1", len(res.Results), err)
	}
	ev, err := r.ShowEvent(res.Results[0].CtxEventID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return r, ev.Event.Text
}
