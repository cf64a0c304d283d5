package sdk_test

import (
	"context"
	"slices"
	"testing"

	"ctx/query"
	"ctx/sdk"
)

const mainSession = "ses_24591081cdbcf15b591b404ea5207080"

func client(t *testing.T) *sdk.Client {
	t.Helper()
	c, err := sdk.Open(storeHome)
	if err != nil {
		t.Fatal(err)
	}
	return c.WithEnv(testEnv())
}

func ids(evs []sdk.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.ID.String())
	}
	return out
}

func TestOpenMissingStore(t *testing.T) {
	_, err := sdk.Open(t.TempDir() + "/nope")
	if sdk.CodeOf(err) != query.CodeNoHistory {
		t.Fatalf("%v", err)
	}
}

func TestShowSessionPaths(t *testing.T) {
	c, ctx := client(t), context.Background()
	for _, mode := range []string{"transcript", "log"} {
		all, err := c.ShowSession(ctx, mainSession, sdk.ShowSessionOptions{Mode: mode})
		if err != nil || all.Pagination != nil || all.Completion == nil || !all.Completion.Complete || len(all.Events) == 0 {
			t.Fatalf("complete path: %v", err)
		}
		var paged []string
		opts := sdk.ShowSessionOptions{Mode: mode, Limit: 4}
		for {
			p, err := c.ShowSession(ctx, mainSession, opts)
			if err != nil || p.Pagination == nil || p.Completion != nil || p.Kind != "session_transcript" {
				t.Fatalf("page path: %v", err)
			}
			paged = append(paged, ids(p.Events)...)
			if !p.Pagination.HasMore {
				break
			}
			opts.Cursor = p.Pagination.NextCursor
		}
		if !slices.Equal(paged, ids(all.Events)) {
			t.Fatalf("%s: pages give %d events, the stream %d", mode, len(paged), len(all.Events))
		}
	}
	// A cursor alone selects the page path with the default limit.
	p, _ := c.ShowSession(ctx, mainSession, sdk.ShowSessionOptions{Mode: "log", Limit: 1})
	q, err := c.ShowSession(ctx, mainSession, sdk.ShowSessionOptions{Mode: "log", Cursor: p.Pagination.NextCursor})
	if err != nil || q.Pagination.Limit != query.DefaultPageLimit {
		t.Fatalf("cursor only: %v", err)
	}
	_, err = c.ShowSession(ctx, mainSession, sdk.ShowSessionOptions{Cursor: p.Pagination.NextCursor})
	if sdk.CodeOf(err) != query.CodeCursorMismatch {
		t.Fatalf("another mode: %v", err)
	}
	_, err = c.ShowSession(ctx, mainSession, sdk.ShowSessionOptions{Limit: 5, MaxEvents: 2})
	if sdk.CodeOf(err) != query.CodeInvalidRequest {
		t.Fatalf("max events on a page: %v", err)
	}
	trunc, err := c.ShowSession(ctx, mainSession, sdk.ShowSessionOptions{MaxEvents: 2})
	if err != nil || len(trunc.Events) != 2 || !trunc.Completion.Truncated {
		t.Fatalf("max events: %v", err)
	}
}

func TestSearchShowEventList(t *testing.T) {
	c, ctx := client(t), context.Background()
	res, err := c.Search(ctx, sdk.SearchRequest{Query: "orchestrate experiment", Limit: 3})
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("search: %v", err)
	}
	hit := res.Results[0]
	v, err := c.ShowEvent(ctx, hit.CtxEventID, sdk.ShowEventOptions{Before: 1, After: 1})
	if err != nil || v.Event.ID.String() != hit.CtxEventID || v.Session.ID.String() != hit.CtxSessionID {
		t.Fatalf("show event: %v", err)
	}
	var listed []string
	req := sdk.ListRequest{Sessions: []string{hit.CtxSessionID}, Content: "none", Limit: 10}
	for {
		p, err := c.ListEvents(ctx, req)
		if err != nil || p.Kind != "event_range_page" {
			t.Fatalf("list: %v", err)
		}
		for _, e := range p.Events {
			listed = append(listed, e.CtxEventID)
		}
		if p.Complete {
			break
		}
		req.Cursor = p.NextCursor
	}
	all, err := c.ShowSession(ctx, hit.CtxSessionID, sdk.ShowSessionOptions{Mode: "log"})
	if err != nil || !slices.Equal(listed, ids(all.Events)) {
		t.Fatalf("list gives %d events, the session has %d (%v)", len(listed), len(all.Events), err)
	}
}

func TestStatusSources(t *testing.T) {
	c, ctx := client(t), context.Background()
	st, err := c.Status(ctx)
	if err != nil || st.Generation == nil || st.Generation.Number != 1 || !st.ReadOnly {
		t.Fatalf("status: %+v %v", st, err)
	}
	rep, err := c.Sources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	present := map[string]bool{}
	for _, s := range rep.Sources {
		present[s.Provider] = present[s.Provider] || s.Present
	}
	if !present["claude-code"] || !present["codex"] || !rep.AutomaticDiscovery {
		t.Fatalf("sources: %+v", present)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.ListEvents(cancelled, sdk.ListRequest{}); err == nil {
		t.Fatal("a cancelled context still reads")
	}
}
