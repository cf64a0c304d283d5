package mcp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	sharedfx "ctx/internal/fixtures"
)

// heldBack is the fixture project imported only later, to publish a new
// generation while a server runs.
const heldBack = "-Users-dain-workspace-coderabbit-review-helper"

// e2e drives one connected ctx mcp serve through the official Go SDK
// client, validating every structuredContent against the tool's
// advertised output schema.
type e2e struct {
	t       *testing.T
	ctx     context.Context
	cs      *sdk.ClientSession
	schemas map[string]*jsonschema.Resolved
}

// TestEndToEnd builds ctx, imports the real fixtures, and drives
// ctx mcp serve over stdio at both protocol versions, and once with a
// client that probes with server/discover first.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the ctx binary")
	}
	w := newWorld(t, heldBack)
	for _, v := range []string{"2025-11-25", "2025-06-18", ""} {
		name := v
		if name == "" {
			name = "discover-probe"
		}
		t.Run(name, func(t *testing.T) {
			want := v
			if want == "" {
				want = ProtocolVersions[0]
			}
			e := connectE2E(t, w, v)
			if got := e.cs.InitializeResult().ProtocolVersion; got != want {
				t.Fatalf("negotiated %s, want %s", got, want)
			}
			e.everyTool()
			e.searchContracts()
			e.typedErrors()
			e.pageSessionToEnd()
			e.pageEventsToEnd()
			e.listSessions(w)
			e.timelineAndStats(w)
		})
	}
	t.Run("raw-pipe", func(t *testing.T) { rawPipe(t, w) })
	t.Run("status-read-model", func(t *testing.T) { statusReadModel(t, w) })
	t.Run("bad-input", func(t *testing.T) { badInput(t, w) })
	t.Run("envelopes", func(t *testing.T) { envelopes(t, w) })
	t.Run("new-generation", func(t *testing.T) { newGeneration(t, w) })
}

func connectE2E(t *testing.T, w *world, version string) *e2e {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cs := w.connect(t, ctx, version)
	t.Cleanup(func() { cs.Close() })
	e := &e2e{t: t, ctx: ctx, cs: cs, schemas: map[string]*jsonschema.Resolved{}}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		e.schemas[tool.Name] = resolveSchema(t, tool.OutputSchema)
	}
	slices.Sort(names)
	want := []string{"blame", "continue_thread", "get_context", "ingest_context", "list_sessions", "list_threads", "query_events",
		"save_session", "search", "show_event", "show_session", "sources", "stats", "status", "timeline"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	return e
}

// call calls a tool, checks the result against its output schema and
// returns the structuredContent as a generic object.
func (e *e2e) call(name string, args map[string]any) (map[string]any, bool) {
	e.t.Helper()
	res, err := e.cs.CallTool(e.ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) == 0 || res.Content[0].(*sdk.TextContent).Text == "" {
		e.t.Fatalf("%s: no text content", name)
	}
	validate(e.t, e.schemas[name], res.StructuredContent)
	obj, _ := res.StructuredContent.(map[string]any)
	return obj, res.IsError
}

// ok calls a tool that must succeed.
func (e *e2e) ok(name string, args map[string]any) map[string]any {
	e.t.Helper()
	obj, isErr := e.call(name, args)
	if isErr {
		e.t.Fatalf("%s %v: tool error %v", name, args, obj)
	}
	return obj
}

// fails calls a tool that must fail with code; the message must not echo
// any of the forbidden strings.
func (e *e2e) fails(code, name string, args map[string]any, forbidden ...string) map[string]any {
	e.t.Helper()
	obj, isErr := e.call(name, args)
	if !isErr || obj["error_code"] != code {
		e.t.Fatalf("%s %v: got %v, want error_code %s", name, args, obj, code)
	}
	for _, f := range forbidden {
		if strings.Contains(obj["message"].(string), f) {
			e.t.Fatalf("%s: message echoes rejected input: %v", name, obj["message"])
		}
	}
	return obj
}

func (e *e2e) everyTool() {
	st := e.ok("status", nil)
	if st["read_only"] != true || st["generation"] == nil {
		e.t.Fatalf("status: %v", st)
	}
	if lu := st["local_usage"].(map[string]any); lu["enabled"] != true || lu["definition_version"] == nil {
		e.t.Fatalf("status local_usage: %v", lu)
	}
	src := e.ok("sources", map[string]any{})
	raw, _ := json.Marshal(src)
	if !strings.Contains(string(raw), `"root":"Backup"`) || !strings.Contains(string(raw), `"group":"archive"`) {
		e.t.Fatalf("sources has no configured row: %s", raw)
	}
	hit := e.firstHit()
	e.ok("show_event", map[string]any{"ctx_event_id": hit["ctx_event_id"], "window": 2})
	e.ok("show_session", map[string]any{"ctx_session_id": hit["ctx_session_id"]})
	e.ok("query_events", map[string]any{"sessions": []string{hit["ctx_session_id"].(string)}, "limit": 5})
	e.fails("invalid_request", "blame", map[string]any{"file": "main.go"})
	if _, err := e.cs.CallTool(e.ctx, &sdk.CallToolParams{Name: "no_such_tool"}); err == nil {
		e.t.Fatal("an unknown tool must be a protocol error")
	}
}

// firstHit returns the first result of a search that must find something.
func (e *e2e) firstHit() map[string]any {
	e.t.Helper()
	res := e.ok("search", map[string]any{"query": "test", "limit": 5})
	hits := res["results"].([]any)
	if len(hits) == 0 {
		e.t.Fatal("search found nothing in the fixtures")
	}
	return hits[0].(map[string]any)
}

func (e *e2e) searchContracts() {
	res := e.ok("search", map[string]any{"query": "test", "include_current_session": true, "primary_only": true})
	if scope := res["filters"].(map[string]any)["content_scope"]; scope != "all" {
		e.t.Fatalf("omitted content_scope resolved to %v, want all", scope)
	}
	for _, scope := range []string{"all", "transcript", "calls", "outputs"} {
		res := e.ok("search", map[string]any{"query": "test", "content_scope": scope})
		if got := res["filters"].(map[string]any)["content_scope"]; got != scope {
			e.t.Fatalf("content_scope %s echoed as %v", scope, got)
		}
	}
	// The import built the built-in vectors: hybrid and semantic run as
	// asked; calls/outputs fall back (hybrid) or fail typed (semantic).
	res = e.ok("search", map[string]any{"query": "test", "mode": "hybrid"})
	meta := res["metadata"].(map[string]any)
	if meta["mode"] != "hybrid" || meta["requested_mode"] != "hybrid" || meta["fallback"] != nil || meta["semantic"] == nil {
		e.t.Fatalf("hybrid metadata: %v", meta)
	}
	res = e.ok("search", map[string]any{"query": "test", "mode": "semantic"})
	if meta := res["metadata"].(map[string]any); meta["mode"] != "semantic" {
		e.t.Fatalf("semantic metadata: %v", meta)
	}
	res = e.ok("search", map[string]any{"query": "test", "mode": "hybrid", "content_scope": "outputs"})
	if meta := res["metadata"].(map[string]any); meta["mode"] != "lexical" || meta["fallback"] == nil {
		e.t.Fatalf("hybrid outputs metadata: %v", meta)
	}
	e.fails("unsupported_mode", "search", map[string]any{"query": "test", "mode": "semantic", "content_scope": "calls"})
	res = e.ok("search", map[string]any{"query": "shell", "source_roots": []string{"Backup"}})
	for _, h := range res["results"].([]any) {
		if p := h.(map[string]any)["provider"]; p != "codex" {
			e.t.Fatalf("source_roots Backup returned a %v hit", p)
		}
	}
	e.ok("search", map[string]any{"query": "shell", "source_groups": []string{"archive"}, "source_roots": []string{"Backup"}})
	e.fails("invalid_request", "search", map[string]any{"query": "shell", "source_roots": []string{"backup"}}, "backup")
}

func (e *e2e) typedErrors() {
	e.fails("invalid_request", "search", map[string]any{"query": 7})
	e.fails("invalid_request", "search", map[string]any{"query": "x", "bogus_argument": 1}, "bogus_argument")
	e.fails("invalid_request", "search", map[string]any{"query": "x", "limit": 0})
	e.fails("invalid_request", "search", map[string]any{"query": "x", "content_scope": "all", "event_type": "message"})
	e.fails("invalid_request", "search", map[string]any{"query": "x", "providers": []string{"gemini"}}, "gemini,")
	e.fails("invalid_request", "search", map[string]any{"query": "x provider:gemini"}, "gemini,")
	e.fails("invalid_request", "search", map[string]any{"query": "x role:bob"}, "bob")
	roots := make([]string, 65)
	for i := range roots {
		roots[i] = "r" + strings.Repeat("x", i%10)
	}
	e.fails("invalid_request", "search", map[string]any{"query": "x", "source_roots": roots})
	e.fails("invalid_request", "search", map[string]any{"query": "x", "source_roots": []string{"../x"}}, "../x")
	e.fails("invalid_request", "search", map[string]any{"query": "x", "source_groups": []string{"../x"}}, "../x")
	e.fails("invalid_request", "show_event", map[string]any{"ctx_event_id": "evt_nope"}, "evt_nope")
	e.fails("invalid_request", "show_event", map[string]any{"ctx_event_id": "evt_0", "window": 1, "before": 1})
	e.fails("not_found", "show_event", map[string]any{"ctx_event_id": "evt_" + strings.Repeat("0", 32)})
	hit := e.firstHit()
	sid := hit["ctx_session_id"].(string)
	eid := hit["ctx_event_id"].(string)
	if v := e.ok("show_event", map[string]any{"ctx_event_id": eid[:len("evt_")+12]}); v["event"].(map[string]any)["ctx_event_id"] != eid {
		e.t.Fatalf("show_event by a prefix of %s: %v", eid, v["event"])
	}
	e.fails("invalid_request", "show_event", map[string]any{"ctx_event_id": "evt_abc"})
	e.fails("invalid_request", "show_session", map[string]any{"ctx_session_id": sid, "limit": 4097})
	e.fails("invalid_request", "show_session", map[string]any{"ctx_session_id": sid, "mode": "everything"})
	e.fails("invalid_cursor", "show_session", map[string]any{"ctx_session_id": sid, "cursor": "not-a-cursor"}, "not-a-cursor")
	e.fails("invalid_cursor", "show_session", map[string]any{"ctx_session_id": sid, "cursor": ""})
	e.fails("invalid_cursor", "show_session", map[string]any{"ctx_session_id": sid, "cursor": "é"})
	page := e.ok("show_session", map[string]any{"ctx_session_id": sid, "mode": "log", "limit": 1})
	cursor := page["pagination"].(map[string]any)["next_cursor"].(string)
	e.fails("cursor_mismatch", "show_session", map[string]any{"ctx_session_id": sid, "mode": "transcript", "cursor": cursor})
	e.fails("cursor_mismatch", "query_events", map[string]any{"cursor": cursor})
	for _, h := range e.ok("search", map[string]any{"query": "test", "limit": 20})["results"].([]any) {
		if other := h.(map[string]any)["ctx_session_id"].(string); other != sid {
			e.fails("cursor_mismatch", "show_session", map[string]any{"ctx_session_id": other, "mode": "log", "cursor": cursor})
			break
		}
	}
	e.fails("invalid_request", "query_events", map[string]any{"event_types": []string{"message"}, "content_scope": "all"})
}

// pageSessionToEnd reads a whole session in log mode with small pages and
// checks that the pages are exactly the session's events, in order.
func (e *e2e) pageSessionToEnd() {
	sid := e.firstHit()["ctx_session_id"].(string)
	args := map[string]any{"ctx_session_id": sid, "mode": "log", "limit": 7}
	var ordinals []int
	want := -1
	for pages := 0; ; pages++ {
		p := e.ok("show_session", args)
		if p["kind"] != "session_transcript" {
			e.t.Fatalf("kind %v", p["kind"])
		}
		want = int(p["session"].(map[string]any)["event_count"].(float64))
		for _, ev := range p["events"].([]any) {
			ordinals = append(ordinals, int(ev.(map[string]any)["ordinal"].(float64)))
		}
		pg := p["pagination"].(map[string]any)
		next, hasCursor := pg["next_cursor"]
		if pg["has_more"] != hasCursor {
			e.t.Fatalf("next_cursor present (%v) must equal has_more (%v)", hasCursor, pg["has_more"])
		}
		if pg["has_more"] != true {
			break
		}
		if pages > 1000 {
			e.t.Fatal("paging does not end")
		}
		args["cursor"] = next
	}
	if len(ordinals) != want || !slices.IsSorted(ordinals) || len(slices.Compact(slices.Clone(ordinals))) != want {
		e.t.Fatalf("paged %d events (%v…), want %d in order", len(ordinals), ordinals[:min(5, len(ordinals))], want)
	}
}

// pageEventsToEnd pages query_events over every event and compares the
// count with the active generation's.
func (e *e2e) pageEventsToEnd() {
	args := map[string]any{"content": "none", "limit": 40}
	total := 0
	for {
		p := e.ok("query_events", args)
		if p["kind"] != "event_range_page" {
			e.t.Fatalf("kind %v", p["kind"])
		}
		total += len(p["events"].([]any))
		next, ok := p["next_cursor"]
		if !ok {
			if p["complete"] != true {
				e.t.Fatalf("a page without next_cursor must be complete: %v", p["complete"])
			}
			break
		}
		args["cursor"] = next
	}
	st := e.ok("status", nil)
	if want := int(st["generation"].(map[string]any)["events"].(float64)); total != want {
		e.t.Fatalf("query_events paged %d events, the generation has %d", total, want)
	}
}

// newGeneration imports more history while one server runs: the next call
// sees the new generation, and cursors of the old one are stale.
func newGeneration(t *testing.T, w *world) {
	e := connectE2E(t, w, ProtocolVersions[0])
	before := e.ok("status", nil)["generation"].(map[string]any)["number"].(float64)
	sid := e.firstHit()["ctx_session_id"].(string)
	page := e.ok("show_session", map[string]any{"ctx_session_id": sid, "mode": "log", "limit": 1})
	cursor := page["pagination"].(map[string]any)["next_cursor"]
	list := e.ok("query_events", map[string]any{"limit": 1})
	listCursor := list["next_cursor"]
	sessionsCursor := e.ok("list_sessions", map[string]any{"limit": 1})["next_cursor"]

	sharedfx.Copy(t, filepath.Join(fixturesDir(t), "claude-code", "projects", heldBack),
		filepath.Join(w.home, ".claude", "projects", heldBack))
	w.ctx(t, "import")

	after := e.ok("status", nil)["generation"].(map[string]any)["number"].(float64)
	if after <= before {
		t.Fatalf("generation %v after a new import, was %v", after, before)
	}
	e.fails("cursor_stale", "show_session", map[string]any{"ctx_session_id": sid, "mode": "log", "cursor": cursor})
	e.fails("cursor_stale", "query_events", map[string]any{"limit": 1, "cursor": listCursor})
	e.fails("cursor_stale", "list_sessions", map[string]any{"limit": 1, "cursor": sessionsCursor})
}

// listSessions pages list_sessions to the end and compares it with the
// CLI's list of the same generation, then checks filters and typed errors.
func (e *e2e) listSessions(w *world) {
	var cliList struct {
		Sessions []struct {
			ID string `json:"ctx_session_id"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(w.ctx(e.t, "list", "sessions", "--all", "--format", "json")), &cliList); err != nil {
		e.t.Fatal(err)
	}
	args := map[string]any{"limit": 3}
	var ids []string
	for pages := 0; ; pages++ {
		p := e.ok("list_sessions", args)
		if p["kind"] != "session_list" {
			e.t.Fatalf("kind %v", p["kind"])
		}
		for _, r := range p["sessions"].([]any) {
			ids = append(ids, r.(map[string]any)["ctx_session_id"].(string))
		}
		next, ok := p["next_cursor"]
		if ok == (p["complete"] == true) {
			e.t.Fatalf("next_cursor present (%v) must mean not complete (%v)", ok, p["complete"])
		}
		if !ok {
			if int(p["total"].(float64)) != len(ids) {
				e.t.Fatalf("paged %d sessions, total says %v", len(ids), p["total"])
			}
			break
		}
		if pages > 1000 {
			e.t.Fatal("paging does not end")
		}
		args["cursor"] = next
	}
	if len(ids) != len(cliList.Sessions) || len(ids) < 4 {
		e.t.Fatalf("list_sessions paged %d sessions, the CLI lists %d", len(ids), len(cliList.Sessions))
	}
	for i, s := range cliList.Sessions {
		if ids[i] != s.ID {
			e.t.Fatalf("session %d: MCP %s, CLI %s", i, ids[i], s.ID)
		}
	}
	for _, r := range e.ok("list_sessions", map[string]any{"providers": []string{"codex"}, "primary_only": true,
		"sort": "events"})["sessions"].([]any) {
		if row := r.(map[string]any); row["provider"] != "codex" || row["is_subagent"] != false {
			e.t.Fatalf("providers codex, primary_only: got %v", row)
		}
	}
	e.fails("invalid_request", "list_sessions", map[string]any{"sort": "size"})
	e.fails("invalid_request", "list_sessions", map[string]any{"limit": 201})
	e.fails("invalid_request", "list_sessions", map[string]any{"workspace": "relative/dir"})
	e.fails("invalid_request", "list_sessions", map[string]any{"since": "2026-02-01", "until": "2026-01-01"})
	e.fails("invalid_cursor", "list_sessions", map[string]any{"cursor": "not-a-cursor"}, "not-a-cursor")
	first := e.ok("list_sessions", map[string]any{"limit": 1})
	e.fails("cursor_mismatch", "list_sessions", map[string]any{"limit": 1, "sort": "name", "cursor": first["next_cursor"]})
	e.fails("cursor_mismatch", "query_events", map[string]any{"cursor": first["next_cursor"]})
}

// timelineAndStats: the timeline and stats tools answer the CLI's read
// models over the same window, default to a recent window, and refuse bad
// input with typed errors.
func (e *e2e) timelineAndStats(w *world) {
	var cliTL struct {
		Sessions int `json:"sessions"`
		Events   int `json:"events"`
		Days     []struct {
			Date string `json:"date"`
		} `json:"days"`
	}
	if err := json.Unmarshal([]byte(w.ctx(e.t, "timeline", "--since", "2000-01-01", "--no-commits", "--format", "json")), &cliTL); err != nil {
		e.t.Fatal(err)
	}
	tl := e.ok("timeline", map[string]any{"since": "2000-01-01", "commits": false})
	if tl["kind"] != "timeline" || int(tl["sessions"].(float64)) != cliTL.Sessions || int(tl["events"].(float64)) != cliTL.Events ||
		len(tl["days"].([]any)) != len(cliTL.Days) || cliTL.Sessions < 4 {
		e.t.Fatalf("timeline: MCP %v sessions %v events %d days; CLI %+v", tl["sessions"], tl["events"], len(tl["days"].([]any)), cliTL)
	}
	if first := tl["days"].([]any)[0].(map[string]any)["date"]; first != cliTL.Days[0].Date {
		e.t.Fatalf("newest day: MCP %v, CLI %s", first, cliTL.Days[0].Date)
	}
	if recent := e.ok("timeline", nil); int(recent["sessions"].(float64)) > cliTL.Sessions {
		e.t.Fatalf("the default window holds more than everything: %v", recent["sessions"])
	}
	var cliStats struct {
		Total struct {
			Sessions, Events int
		} `json:"total"`
		Files []struct {
			Path     string `json:"path"`
			Sessions int    `json:"sessions"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(w.ctx(e.t, "stats", "--since", "2000-01-01", "--by", "week", "--format", "json")), &cliStats); err != nil {
		e.t.Fatal(err)
	}
	st := e.ok("stats", map[string]any{"since": "2000-01-01", "period": "week", "providers": []string{}})
	total := st["total"].(map[string]any)
	if int(total["sessions"].(float64)) != cliStats.Total.Sessions || int(total["events"].(float64)) != cliStats.Total.Events ||
		st["period"] != "week" || len(st["files"].([]any)) != len(cliStats.Files) {
		e.t.Fatalf("stats: MCP total %v files %d; CLI %+v", total, len(st["files"].([]any)), cliStats)
	}
	codex := e.ok("stats", map[string]any{"since": "2000-01-01", "providers": []string{"codex"}})
	if agents := codex["agents"].([]any); len(agents) != 1 || agents[0].(map[string]any)["provider"] != "codex" {
		e.t.Fatalf("stats for codex: %v", codex["agents"])
	}
	e.fails("invalid_request", "stats", map[string]any{"period": "month"})
	e.fails("invalid_request", "timeline", map[string]any{"since": "last tuesday"})
	e.fails("invalid_request", "stats", map[string]any{"machines": []string{"Not A Machine"}})
}
