package ui

import (
	"context"
	"net/http"
	"strings"

	"ctx/query"
	"ctx/sources"
)

// searchLimit is the number of results a search page shows.
const searchLimit = 50

// searchData is the search page: the form's values, its choices and the
// result (nil before the first query, or when Err is set).
type searchData struct {
	Q, Scope, Provider, Mode, Workspace string
	PrimaryOnly                         bool
	Scopes, Modes, Providers            []string
	Hits                                []hitView
	Result                              *query.SearchResult
	Err                                 *Error
}

// hitView is one result with its snippet split for highlighting.
type hitView struct {
	query.SearchHit
	Link     string
	Segments []segment
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d := &searchData{Q: q.Get("q"), Scope: q.Get("scope"), Provider: q.Get("provider"), Mode: q.Get("mode"),
		Workspace: q.Get("workspace"), PrimaryOnly: q.Get("primary") == "1",
		Scopes: []string{"all", "transcript", "calls", "outputs"}, Modes: []string{"lexical", "semantic", "hybrid"}}
	for _, p := range sources.Builtin() {
		d.Providers = append(d.Providers, p.Name())
	}
	status := http.StatusOK
	var gen *query.GenerationRef
	if strings.TrimSpace(d.Q) != "" {
		if err := s.runSearch(r.Context(), d); err != nil {
			d.Err = classify(err)
			status = d.Err.Status
		} else {
			gen = &d.Result.Generation
		}
	}
	title := "Search"
	if d.Q != "" {
		title = oneLine(d.Q) + " · search"
	}
	return s.render(w, r, status, "search", pageData{Title: title, Nav: "search", Q: d.Q, Gen: gen, Data: d})
}

func (s *Server) runSearch(ctx context.Context, d *searchData) error {
	args := query.FilterArgs{Workspace: d.Workspace, PrimaryOnly: d.PrimaryOnly}
	if d.Provider != "" {
		args.Providers = []string{d.Provider}
	}
	filter, err := args.Parse()
	if err != nil {
		return err
	}
	req := query.SearchRequest{Query: d.Q, Scope: d.Scope, Filter: filter, Limit: searchLimit, Mode: d.Mode}
	res, err := s.app.Search(ctx, req)
	if err != nil {
		return err
	}
	ts := terms(d.Q)
	d.Result = res
	for _, h := range res.Results {
		hv := hitView{SearchHit: h, Link: eventLink(h.CtxSessionID, h.CtxEventID, h.EventType, h.Ordinal)}
		hv.Workspace = oneLine(h.Workspace)
		hv.Segments = highlight(oneLine(h.Snippet), ts)
		d.Hits = append(d.Hits, hv)
	}
	return nil
}
