package app

import (
	"context"

	"ctx/config"
	"ctx/query"
)

// SearchRequest is the input of Search (ctx search flags, MCP search
// arguments, the SDK).
type SearchRequest = query.SearchRequest

// FilterArgs is a filter as a front end receives it; its Parse gives the
// typed core.Filter of every read model's request.
type FilterArgs = query.FilterArgs

// SearchResult is the search read model: ctx search --format json and the
// MCP search structuredContent.
type SearchResult = query.SearchResult

// SemanticOptions configure the vector side of a search.
type SemanticOptions = query.SemanticOptions

// Search validates the request, resolves the [semantic] table the mode
// needs, wakes the daemon and searches the active generation.
func (a *App) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	if _, err := req.Validate(); err != nil {
		return nil, err
	}
	so, err := a.SemanticOptions(req.Mode)
	if err != nil {
		return nil, err
	}
	return a.search(ctx, req, so)
}

// SearchWith is Search with explicit semantic options: a configuration
// and, optionally, an embedder that replaces the configured one (the same
// embedder must have built the generation's vectors).
func (a *App) SearchWith(ctx context.Context, req SearchRequest, so SemanticOptions) (*SearchResult, error) {
	if _, err := req.Validate(); err != nil {
		return nil, err
	}
	return a.search(ctx, req, so)
}

// search wakes the daemon and searches a validated request.
func (a *App) search(ctx context.Context, req SearchRequest, so SemanticOptions) (*SearchResult, error) {
	a.Wake()
	var out *SearchResult
	err := a.read(ctx, func(r *query.Reader) (err error) {
		out, err = r.SearchWith(ctx, req, so)
		return err
	})
	return out, err
}

// SemanticOptions returns the semantic options of a search in mode: the
// [semantic] table of config.toml, read only when the mode needs vectors
// (a lexical search never reads the config).
func (a *App) SemanticOptions(mode string) (SemanticOptions, error) {
	so := SemanticOptions{Config: config.DefaultSemantic(), Getenv: a.env.Get}
	if mode == "" || mode == query.ModeLexical {
		return so, nil
	}
	cfg, err := config.Load(a.env)
	if err != nil {
		if a.lenient {
			return so, nil
		}
		return so, err
	}
	so.Config = cfg.SemanticConfig()
	return so, nil
}
