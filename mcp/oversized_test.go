package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// oversizedWorld is a home whose one Claude Code session holds a 3 MB
// message and a 2 MB file write between small events: records that alone
// exceed the 1 MiB response limit.
func oversizedWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	w := &world{bin: buildCtx(t, dir), home: filepath.Join(dir, "home"), store: filepath.Join(dir, "store")}
	const sid = "0a0a0a0a-1111-2222-3333-444444444444"
	at := func(s int) string { return time.Date(2026, 3, 1, 10, 0, s, 0, time.UTC).Format(time.RFC3339) }
	line := func(v map[string]any) string {
		v["sessionId"], v["cwd"] = sid, "/w"
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	msg := func(role string, content any) map[string]any { return map[string]any{"role": role, "content": content} }
	huge := strings.Repeat("a very long pasted log line <x> & more\n", 3<<20/39)
	body := strings.Repeat("package main // generated\n", 2<<20/26)
	var b strings.Builder
	b.WriteString(line(map[string]any{"type": "user", "uuid": "u1", "timestamp": at(0), "message": msg("user", "first question")}))
	b.WriteString(line(map[string]any{"type": "assistant", "uuid": "a1", "timestamp": at(1),
		"message": map[string]any{"id": "m1", "role": "assistant", "model": "claude-x", "content": []any{map[string]any{"type": "text", "text": "first answer"}}}}))
	b.WriteString(line(map[string]any{"type": "user", "uuid": "u2", "timestamp": at(2), "message": msg("user", huge)}))
	b.WriteString(line(map[string]any{"type": "assistant", "uuid": "a2", "timestamp": at(3),
		"message": map[string]any{"id": "m2", "role": "assistant", "model": "claude-x", "content": []any{
			map[string]any{"type": "text", "text": "writing it"},
			map[string]any{"type": "tool_use", "id": "t1", "name": "Write", "input": map[string]any{"file_path": "/w/gen.go", "content": body}}}}}))
	b.WriteString(line(map[string]any{"type": "user", "uuid": "u3", "timestamp": at(4),
		"message": msg("user", []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": "written"}})}))
	b.WriteString(line(map[string]any{"type": "assistant", "uuid": "a3", "timestamp": at(5),
		"message": map[string]any{"id": "m3", "role": "assistant", "model": "claude-x", "content": []any{map[string]any{"type": "text", "text": "last answer"}}}}))
	path := filepath.Join(w.home, ".claude", "projects", "-w", sid+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ctx(t, "import")
	return w
}

// TestOversizedRecord: a record over the 1 MiB response limit is no dead
// end. show_session and query_events (content full and text) page past it,
// listing it as skipped with its size and id; every event is either
// returned or skipped, exactly once; the skipped entry's hint names a read
// that returns it; a cursor carries over to another content projection.
func TestOversizedRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the ctx binary")
	}
	w := oversizedWorld(t)
	e := connectE2E(t, w, "")
	sessions := e.ok("list_sessions", nil)["sessions"].([]any)
	if len(sessions) != 1 {
		t.Fatalf("%d sessions", len(sessions))
	}
	sid := sessions[0].(map[string]any)["ctx_session_id"].(string)

	seen, skipped := e.pageOversized("show_session", map[string]any{"ctx_session_id": sid, "mode": "log"})
	if len(skipped) == 0 {
		t.Fatal("show_session skipped nothing: the 3 MB message was returned whole?")
	}
	count := int(e.ok("show_session", map[string]any{"ctx_session_id": sid, "mode": "log", "limit": 1})["session"].(map[string]any)["event_count"].(float64))
	if len(seen) != count {
		t.Fatalf("show_session log reached %d of %d events", len(seen), count)
	}
	for _, content := range []string{"full", "text"} {
		seen, skipped := e.pageOversized("query_events", map[string]any{"content": content, "limit": 3})
		if len(seen) != count || len(skipped) == 0 {
			t.Fatalf("content %s: reached %d of %d events, %d skipped", content, len(seen), count, len(skipped))
		}
		for _, sk := range skipped {
			e.hintWorks(w, sid, content, sk)
		}
	}

	// A cursor of a content full page continues under content none.
	p := e.ok("query_events", map[string]any{"content": "full", "limit": 2})
	next, _ := p["next_cursor"].(string)
	q := e.ok("query_events", map[string]any{"content": "none", "limit": 2, "cursor": next})
	if evs := q["events"].([]any); len(evs) == 0 || evs[0].(map[string]any)["ordinal"].(float64) != 2 {
		t.Fatalf("the cursor under content none: %v", q["events"])
	}
}

// pageOversized pages a tool to its end; it returns the ordinals of every
// event reached (returned or skipped, each exactly once) and the skipped
// entries.
func (e *e2e) pageOversized(tool string, args map[string]any) (map[int]bool, []map[string]any) {
	e.t.Helper()
	seen, skipped := map[int]bool{}, []map[string]any(nil)
	reach := func(ord int) {
		if seen[ord] {
			e.t.Fatalf("%s: ordinal %d reached twice", tool, ord)
		}
		seen[ord] = true
	}
	for pages := 0; pages < 100; pages++ {
		p := e.ok(tool, args)
		for _, ev := range p["events"].([]any) {
			reach(int(ev.(map[string]any)["ordinal"].(float64)))
		}
		sks, _ := p["skipped"].([]any)
		for _, s := range sks {
			sk := s.(map[string]any)
			if sk["bytes"].(float64) <= sk["budget_bytes"].(float64) || !strings.HasPrefix(sk["ctx_event_id"].(string), "evt_") {
				e.t.Fatalf("%s: skipped entry %v", tool, sk)
			}
			reach(int(sk["ordinal"].(float64)))
			skipped = append(skipped, sk)
		}
		next, _ := p["next_cursor"].(string)
		if pg, ok := p["pagination"].(map[string]any); ok {
			next, _ = pg["next_cursor"].(string)
		}
		if next == "" {
			return seen, skipped
		}
		args["cursor"] = next
	}
	e.t.Fatalf("%s: paging does not end", tool)
	return nil, nil
}

// hintWorks follows a skipped entry's hint: the CLI prints the event whole,
// and the smaller projection it names returns it.
func (e *e2e) hintWorks(w *world, sid, content string, sk map[string]any) {
	e.t.Helper()
	hint, id := sk["hint"].(string), sk["ctx_event_id"].(string)
	if !strings.Contains(hint, "ctx show event "+id+" --format json") {
		e.t.Fatalf("hint without the CLI read: %s", hint)
	}
	var whole struct {
		Event map[string]any `json:"event"`
	}
	if err := json.Unmarshal([]byte(w.ctx(e.t, "show", "event", id, "--format", "json")), &whole); err != nil ||
		whole.Event["ctx_event_id"] != id || len(whole.Event["text"].(string)) < 1<<20 {
		e.t.Fatalf("ctx show event does not print %s whole: %v", id, err)
	}
	for _, smaller := range []string{"text", "none"} {
		if smaller == content || !strings.Contains(hint, "content "+smaller+" ") {
			continue
		}
		p := e.ok("query_events", map[string]any{"sessions": []any{sid}, "content": smaller, "limit": 4096})
		ids := []string{}
		for _, ev := range p["events"].([]any) {
			ids = append(ids, ev.(map[string]any)["ctx_event_id"].(string))
		}
		if !slices.Contains(ids, sk["ctx_event_id"].(string)) {
			e.t.Fatalf("the hint %q does not return the event", hint)
		}
		return
	}
	if content != "none" {
		e.t.Fatalf("hint names no smaller projection: %s", hint)
	}
}
