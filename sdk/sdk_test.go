package sdk_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ctx/config"
	"ctx/core"
	"ctx/internal/fixtures"
	"ctx/query"
	"ctx/sdk"
)

const mainSession = "ses_24591081cdbcf15b591b404ea5207080"

func client(t *testing.T) *sdk.Client {
	t.Helper()
	if fixtureErr != nil {
		t.Skip(fixtures.Missing)
	}
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
	filter, err := (&sdk.FilterArgs{Sessions: []string{hit.CtxSessionID}}).Parse()
	if err != nil {
		t.Fatal(err)
	}
	req := sdk.ListRequest{Filter: filter, Content: "none", Limit: 10}
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
	st, err := c.Status(ctx, "")
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

// TestSearchModes checks that the SDK searches in the request's mode with
// the [semantic] table of the client's environment, as the CLI does, and
// that SearchWith takes explicit options.
func TestSearchModes(t *testing.T) {
	c, ctx := client(t), context.Background()
	res, err := c.Search(ctx, sdk.SearchRequest{Query: "orchestrate experiment", Mode: "hybrid", Limit: 3})
	if err != nil || res.Metadata.Mode != "hybrid" || res.Metadata.Fallback != nil || res.Metadata.Semantic == nil {
		t.Fatalf("hybrid with the default config: %+v %v", res.Metadata, err)
	}

	// The same client environment with semantic search turned off in its
	// config.toml: hybrid falls back and says why, semantic fails typed.
	home := t.TempDir()
	cfg := filepath.Join(home, ".config", "ctx", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[semantic]\nenabled = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	off := c.WithEnv(core.Env{Home: home, Getenv: func(string) string { return "" }})
	res, err = off.Search(ctx, sdk.SearchRequest{Query: "orchestrate experiment", Mode: "hybrid", Limit: 3})
	if err != nil || res.Metadata.Mode != "lexical" || res.Metadata.Fallback == nil ||
		res.Metadata.Fallback.Reason != "semantic_unavailable" || len(res.Results) == 0 {
		t.Fatalf("hybrid with semantic off: %+v %v", res.Metadata, err)
	}
	if _, err := off.Search(ctx, sdk.SearchRequest{Query: "orchestrate", Mode: "semantic"}); sdk.CodeOf(err) != "semantic_unavailable" {
		t.Fatalf("semantic with semantic off: %v", err)
	}
	// A lexical search never reads the config, so a broken one does not
	// stop it; a hybrid one reports it.
	if err := os.WriteFile(cfg, []byte("[semantic\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := off.Search(ctx, sdk.SearchRequest{Query: "orchestrate"}); err != nil {
		t.Fatalf("lexical with a broken config: %v", err)
	}
	var ce *config.Error
	if _, err := off.Search(ctx, sdk.SearchRequest{Query: "orchestrate", Mode: "hybrid"}); !errors.As(err, &ce) {
		t.Fatalf("hybrid with a broken config: %v", err)
	}

	// SearchWith: explicit options override the environment.
	so := sdk.SemanticOptions{Config: config.DefaultSemantic()}
	so.Config.Weight = 0
	res, err = off.SearchWith(ctx, sdk.SearchRequest{Query: "orchestrate experiment", Mode: "hybrid"}, so)
	if err != nil || res.Metadata.Mode != "lexical" || res.Metadata.Fallback == nil {
		t.Fatalf("SearchWith weight 0: %+v %v", res.Metadata, err)
	}
}
