package query

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"ctx/core"
)

// jsonKeys returns the sorted keys of v's JSON object.
func jsonKeys(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func pinKeys(t *testing.T, what string, v any, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := jsonKeys(t, v); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s fields changed:\n got %v\nwant %v", what, got, want)
	}
}

func TestListSessionsFixtures(t *testing.T) {
	r := fixtureReader(t)
	tree, _ := r.Tree()
	list, err := r.ListSessions(SessionsRequest{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if list.Total != len(tree.Sessions) || len(list.Sessions) != list.Total || !list.Complete || list.NextCursor != "" {
		t.Fatalf("all: total %d of %d, complete %v", list.Total, len(tree.Sessions), list.Complete)
	}
	pinKeys(t, "session_list", list, "kind", "generation", "selection", "sessions", "total", "complete")
	for i := 1; i < len(list.Sessions); i++ {
		a, b := list.Sessions[i-1].LastActivity, list.Sessions[i].LastActivity
		if a != nil && b != nil && a.Before(*b) {
			t.Fatalf("not newest activity first at %d", i)
		}
	}
	parent := "ses_24591081cdbcf15b591b404ea5207080"
	var row, sub *SessionRow
	for i := range list.Sessions {
		switch list.Sessions[i].CtxSessionID {
		case parent:
			row = &list.Sessions[i]
		case "ses_0b5926a15129d0b26c702c9c4c83406a":
			sub = &list.Sessions[i]
		}
	}
	if row == nil || sub == nil {
		t.Fatal("the 2.1.114 fixture and its subagent are missing")
	}
	pinKeys(t, "session row", row, "ctx_session_id", "short_id", "provider", "native_session_id", "root_session_id",
		"is_subagent", "workspace", "title", "title_source", "started", "last_activity", "duration_seconds", "events",
		"prompts", "tool_calls", "commands", "files_edited", "errors", "compactions", "subagents", "models", "tokens")
	if row.Subagents != 1 || row.IsSubagent || !sub.IsSubagent || sub.ParentSessionID != parent {
		t.Fatalf("family: parent subagents %d, sub parent %q", row.Subagents, sub.ParentSessionID)
	}
	if row.TitleSource != core.TitleFromPrompt || !strings.HasPrefix(row.Title, "OK, we're going to make") {
		t.Fatalf("title %q (%s)", row.Title, row.TitleSource)
	}
	if row.Tokens == nil || row.Tokens.Output == 0 || row.ShortID != parent[:12] {
		t.Fatalf("tokens %+v short %q", row.Tokens, row.ShortID)
	}
}

func TestListSessionsFiltersAndPaging(t *testing.T) {
	r := fixtureReader(t)
	all, err := r.ListSessions(SessionsRequest{All: true, Sort: SortName})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	req := SessionsRequest{Sort: SortName, Limit: 2}
	for {
		page, err := r.ListSessions(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range page.Sessions {
			ids = append(ids, s.CtxSessionID)
		}
		if page.Complete {
			break
		}
		req.Cursor = page.NextCursor
	}
	var want []string
	for _, s := range all.Sessions {
		want = append(want, s.CtxSessionID)
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("pages %v\nwant  %v", ids, want)
	}
	// A cursor of other filters is a mismatch, not a silent restart.
	first, _ := r.ListSessions(SessionsRequest{Limit: 1})
	if _, err := r.ListSessions(SessionsRequest{Limit: 1, Sort: SortEvents, Cursor: first.NextCursor}); CodeOf(err) != CodeCursorMismatch {
		t.Fatalf("mismatched cursor: %v", err)
	}
	codex, _ := r.ListSessions(SessionsRequest{All: true, Filter: core.Filter{Providers: []string{core.ProviderCodex}}})
	primary, _ := r.ListSessions(SessionsRequest{All: true, Filter: core.Filter{PrimaryOnly: true}})
	for _, s := range codex.Sessions {
		if s.Provider != core.ProviderCodex {
			t.Fatalf("provider filter let %s through", s.Provider)
		}
	}
	for _, s := range primary.Sessions {
		if s.IsSubagent {
			t.Fatal("primary only listed a subagent")
		}
	}
	if codex.Total == 0 || primary.Total == 0 || primary.Total == all.Total {
		t.Fatalf("codex %d primary %d all %d", codex.Total, primary.Total, all.Total)
	}
	if _, err := r.ListSessions(SessionsRequest{Sort: "size"}); CodeOf(err) != CodeInvalidRequest {
		t.Fatalf("bad sort: %v", err)
	}
}

func TestResolveSession(t *testing.T) {
	r := fixtureReader(t)
	const full = "ses_24591081cdbcf15b591b404ea5207080"
	for _, arg := range []string{full, "ses_2459108", "ef958aa1-0e93-49f0-bb71-150f63befcd1"} {
		id, err := r.ResolveSession(arg)
		if err != nil || id.String() != full {
			t.Fatalf("%s: %v %v", arg, id, err)
		}
	}
	if _, err := r.ResolveSession("ses_ffffffff"); CodeOf(err) != CodeNotFound {
		t.Fatalf("unknown prefix: %v", err)
	}
	// "ses_" alone or with 3 digits is too short to be a prefix: a usage error.
	for _, arg := range []string{"ses_", "ses_245"} {
		if _, err := r.ResolveSession(arg); CodeOf(err) != CodeInvalidRequest {
			t.Fatalf("%s: %v", arg, err)
		}
	}
}
