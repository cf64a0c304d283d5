package app

import (
	"context"
	"encoding/json"
	"errors"

	"ctx/config"
	"ctx/query"
	"ctx/wake"
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

// search wakes the daemon and searches a validated request. A front end
// without a pooled Reader (the CLI) first asks a running daemon to search
// over the shards it holds open (a lexical search: its answer does not
// depend on the caller's environment); anything but an answer, and it
// searches itself.
func (a *App) search(ctx context.Context, req SearchRequest, so SemanticOptions) (*SearchResult, error) {
	if a.pool == nil && !a.noWake && so.Embedder == nil && (req.Mode == "" || req.Mode == query.ModeLexical) {
		if out, err := a.searchViaDaemon(ctx, req); err == nil {
			return out, nil
		}
	}
	a.Wake() // no daemon (one starts when enabled), another version, or its error: as before
	out, err := a.readSearch(ctx, req, so)
	if err == nil && out.Metadata.Partial != nil {
		// A running daemon rebuilds the damaged shards from the store.
		_ = wake.RequestRepair(a.home)
	}
	return out, err
}

// readSearch searches the active generation, waking no one.
func (a *App) readSearch(ctx context.Context, req SearchRequest, so SemanticOptions) (*SearchResult, error) {
	return readValue(ctx, a, func(r *query.Reader) (*SearchResult, error) { return r.SearchWith(ctx, req, so) })
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

// searchViaDaemon sends a validated request to the store's running daemon.
func (a *App) searchViaDaemon(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	data, err := wake.Search(ctx, a.home, a.version, raw, WakeWait)
	if err != nil {
		return nil, err
	}
	var out SearchResult
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ServeSearch is the daemon's side of searchViaDaemon: the JSON of a
// SearchRequest in, the JSON of its SearchResult out, searched as Search
// would without waking anyone (the daemon imports before it calls this);
// damaged reports that the result left a damaged shard out.
func (a *App) ServeSearch(ctx context.Context, raw []byte) (result []byte, damaged bool, err error) {
	var req SearchRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, false, err
	}
	if req.Mode != "" && req.Mode != query.ModeLexical {
		return nil, false, errors.New("the daemon answers lexical searches only")
	}
	if _, err := req.Validate(); err != nil {
		return nil, false, err
	}
	so, err := a.SemanticOptions(req.Mode)
	if err != nil {
		return nil, false, err
	}
	out, err := a.readSearch(ctx, req, so)
	if err != nil {
		return nil, false, err
	}
	result, err = json.Marshal(out)
	return result, out.Metadata.Partial != nil, err
}
