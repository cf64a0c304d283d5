package query

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/index"
)

// MaxQueryBytes bounds the text of one query.
const MaxQueryBytes = 4096

// MaxLimit bounds the results of one search.
const MaxLimit = 1000

// SearchRequest is the input of search, from CLI flags or MCP arguments.
type SearchRequest struct {
	Query string
	Scope string // "" means all
	// Filter selects the events searched (FilterArgs.Parse builds it from a
	// front end's strings); a search takes at most one event type, which
	// cannot be combined with a scope.
	Filter core.Filter
	Limit  int
	// Mode is ModeLexical (the default when empty), ModeSemantic or
	// ModeHybrid (spec 000; see SearchWith).
	Mode string
	// SemanticWeight is the weight of the vector ranks in hybrid search,
	// 0..1; nil takes the configured weight (0.5 by default). Zero means no
	// vector work at all.
	SemanticWeight *float64
}

// MaxSelectors bounds --source-root and --source-group (spec 000).
const MaxSelectors = 64

// SearchFilters echoes the resolved filters.
type SearchFilters struct {
	ContentScope core.Scope `json:"content_scope"`
	EventType    string     `json:"event_type,omitempty"`
	Providers    []string   `json:"providers,omitempty"`
	Workspace    string     `json:"workspace,omitempty"`
	Since        *time.Time `json:"since,omitempty"`
	Until        *time.Time `json:"until,omitempty"`
	PrimaryOnly  bool       `json:"primary_only"`
	SourceRoots  []string   `json:"source_roots,omitempty"`
	SourceGroups []string   `json:"source_groups,omitempty"`
	Roles        []string   `json:"roles,omitempty"`
	Files        []string   `json:"files,omitempty"`
	Sessions     []string   `json:"sessions,omitempty"`
	Machines     []string   `json:"machines,omitempty"`
}

// SearchHit is one result.
type SearchHit struct {
	CtxSessionID  string    `json:"ctx_session_id"`
	CtxEventID    string    `json:"ctx_event_id"`
	RootSessionID string    `json:"root_session_id"`
	IsSubagent    bool      `json:"is_subagent"`
	EventType     string    `json:"event_type"`
	Role          string    `json:"role"`
	Provider      string    `json:"provider"`
	Workspace     string    `json:"workspace"`
	Machine       string    `json:"machine,omitempty"` // absent for this store's own
	Timestamp     time.Time `json:"timestamp"`
	Ordinal       int       `json:"ordinal"`
	Score         float64   `json:"score"`
	// Snippet is plain text on one line (escape sequences removed, white
	// space and control characters folded), where the query's words are
	// densest; Highlights marks the words and phrases matched in it.
	Snippet         string `json:"snippet"`
	Highlights      []Span `json:"highlights,omitempty" jsonschema:"Where the query's words and phrases are in snippet: UTF-8 byte offsets, end exclusive."`
	NativeSessionID string `json:"native_session_id,omitempty"`
}

// SearchMetadata describes how the answer was produced.
type SearchMetadata struct {
	// Mode is the mode actually used; RequestedMode the one asked for.
	Mode string `json:"mode"`
	// TotalMatches counts lexical matches (lexical and hybrid) or the
	// vectors that passed the filters with a positive similarity (semantic).
	TotalMatches uint64 `json:"total_matches"`
	// TotalRelation is "eq" when TotalMatches is the number of matching
	// events, "gte" when it is a lower bound: a search reads the best
	// groups of events, and each matching group it did not read counts
	// as one event.
	TotalRelation string `json:"total_relation"`
	// Match says what the lexical results matched: all_words (each holds
	// every word of the query), any_word (too few held every word, so
	// results holding only some follow those that do). Empty in semantic
	// mode.
	Match    string `json:"match,omitempty"`
	Returned int    `json:"returned"`
	Limit    int    `json:"limit"`
	TookMS   int64  `json:"took_ms"`
	// Semantic describes the vectors searched (semantic and hybrid).
	Semantic      *SemanticInfo `json:"semantic,omitempty"`
	RequestedMode string        `json:"requested_mode" jsonschema:"The mode the caller asked for."`
	// Fallback is set when the answer used another mode than requested.
	Fallback *SearchFallback `json:"fallback,omitempty" jsonschema:"Present when the answer used another mode than requested."`
	// Dropped counts the lowest-ranked results a front end left out to fit
	// its response size limit (MCP).
	Dropped int `json:"dropped,omitempty" jsonschema:"Lowest-ranked results left out to fit the response size limit; ask for a smaller limit."`
	// Partial is set when damaged index shards were left out: the results
	// come from the other shards.
	Partial *SearchPartial `json:"partial,omitempty" jsonschema:"Present when damaged index shards could not be searched: the results come from the other shards."`
}

// SearchResult is the search read model.
type SearchResult struct {
	Generation GenerationRef  `json:"generation"`
	Query      string         `json:"query"`
	Filters    SearchFilters  `json:"filters"`
	Results    []SearchHit    `json:"results"`
	Metadata   SearchMetadata `json:"metadata"`
}

// Validate checks the request and fills defaults; it returns the resolved
// scope. Messages never echo rejected values.
func (req *SearchRequest) Validate() (core.Scope, error) {
	if strings.TrimSpace(req.Query) == "" {
		return "", Errorf(CodeInvalidRequest, "a search needs a query")
	}
	if len(req.Query) > MaxQueryBytes {
		return "", Errorf(CodeInvalidRequest, "a query is limited to %d bytes", MaxQueryBytes)
	}
	if len(req.Filter.Types) > 1 {
		return "", Errorf(CodeInvalidRequest, "a search takes one event type")
	}
	if len(req.Filter.Types) > 0 && req.Scope != "" {
		return "", Errorf(CodeInvalidRequest, "event type and content scope cannot be combined: pass one or the other")
	}
	scope, err := core.ParseScope(req.Scope)
	if err != nil {
		return "", Errorf(CodeInvalidRequest, "invalid content scope: want all, transcript, calls or outputs")
	}
	if req.Limit == 0 {
		req.Limit = 20
	}
	if req.Limit < 1 || req.Limit > MaxLimit {
		return "", Errorf(CodeInvalidRequest, "limit must be between 1 and %d", MaxLimit)
	}
	if err := req.validMode(); err != nil {
		return "", err
	}
	if err := CheckFilter(&req.Filter); err != nil {
		return "", err
	}
	return scope, nil
}

// resolveSelectors fails closed when a root or group is neither a source
// of the pinned generation nor one the configuration names (see
// SetConfiguredSelectors): a configured root with no sessions yet selects
// nothing, a typo is an error.
func (r *Reader) resolveSelectors(roots, groups []string) error {
	knownRoots, knownGroups := map[string]bool{}, map[string]bool{}
	for _, s := range r.gen.Sources {
		if s.Root != "" {
			knownRoots[s.Root] = true
		}
		if s.Group != "" {
			knownGroups[s.Group] = true
		}
	}
	conf := r.configured.Load()
	for _, v := range roots {
		if !knownRoots[v] && (conf == nil || !conf.roots[v]) {
			return &Error{Code: CodeInvalidRequest, Message: errUnknownRoot.Error(), Err: errUnknownRoot}
		}
	}
	for _, v := range groups {
		if !knownGroups[v] && (conf == nil || !conf.groups[v]) {
			return &Error{Code: CodeInvalidRequest, Message: errUnknownGroup.Error(), Err: errUnknownGroup}
		}
	}
	return nil
}

// The causes of an unknown source root or group (see IsUnknownSelector).
var (
	errUnknownRoot  = errors.New("unknown source root: the sources tool and ctx sources list the configured ones")
	errUnknownGroup = errors.New("unknown source group: the sources tool and ctx sources list the configured ones")
)

// IsUnknownSelector reports whether err is an unknown source root or
// group: a front end that knows the configuration can name its roots and
// groups (SetConfiguredSelectors) and ask again.
func IsUnknownSelector(err error) bool {
	return errors.Is(err, errUnknownRoot) || errors.Is(err, errUnknownGroup)
}

// configuredSelectors are the roots and groups the configuration names.
type configuredSelectors struct{ roots, groups map[string]bool }

// SetConfiguredSelectors makes the configuration's roots and groups known
// to the Reader's selector check besides the generation's sources. It
// reports whether the set changed (so that a failed read is worth asking
// again). Safe for concurrent use.
func (r *Reader) SetConfiguredSelectors(roots, groups []string) bool {
	c := &configuredSelectors{roots: map[string]bool{}, groups: map[string]bool{}}
	for _, v := range roots {
		c.roots[v] = true
	}
	for _, v := range groups {
		c.groups[v] = true
	}
	old := r.configured.Swap(c)
	return old == nil || !maps.Equal(old.roots, c.roots) || !maps.Equal(old.groups, c.groups)
}

// checkProviders fails when a provider filter names no provider ctx knows
// (built-in, or a plugin source of the pinned generation): a typo such as
// gemini for gemini-cli would otherwise answer "no results". The message
// lists the valid ids, never the rejected value.
func (r *Reader) checkProviders(providers []string, where string) error {
	if len(providers) == 0 {
		return nil
	}
	known := slices.Clone(config.BuiltinProviders)
	for _, s := range r.gen.Sources {
		if !slices.Contains(known, s.Provider) {
			known = append(known, s.Provider)
		}
	}
	for _, p := range providers {
		if !slices.Contains(known, p) {
			return Errorf(CodeInvalidRequest, "unknown provider%s: want one of %s", where, strings.Join(known, ", "))
		}
	}
	return nil
}

// checkQueryFields holds the provider:, role: and type: filters of the
// query string to the rules of the same filters given as flags: a value
// ctx does not know is invalid_request, never a silent empty answer.
func (r *Reader) checkQueryFields(q string) error {
	fields := index.QueryFields(q)
	if err := r.checkProviders(fields["provider"], " in provider: of the query"); err != nil {
		return err
	}
	f := core.Filter{Roles: core.Typed[core.Role](fields["role"]), Types: core.Typed[core.EventType](fields["type"])}
	if err := CheckFilter(&f); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return Errorf(e.Code, "in role: or type: of the query: %s", e.Message)
		}
		return err
	}
	return nil
}

func knownType(t string) bool {
	for _, k := range core.EventTypes {
		if string(k) == t {
			return true
		}
	}
	return false
}

// Search runs a search over the pinned generation with the default
// semantic configuration (the built-in embedder, weight 0.5); see
// SearchWith.
func (r *Reader) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	return r.SearchWith(ctx, req, SemanticOptions{Config: config.DefaultSemantic()})
}

// newResult starts the read model of a validated request.
func newResult(r *Reader, req SearchRequest, scope core.Scope) *SearchResult {
	f := &req.Filter
	out := &SearchResult{Generation: r.Ref(), Query: req.Query, Results: []SearchHit{},
		Filters: SearchFilters{ContentScope: scope, Providers: f.Providers, Workspace: f.Workspace,
			PrimaryOnly: f.PrimaryOnly, SourceRoots: f.SourceRoots, SourceGroups: f.SourceGroups,
			Roles: core.Strings(f.Roles), Files: f.Files, Sessions: core.SessionIDStrings(f.Sessions),
			Machines: f.Machines}, Metadata: SearchMetadata{TotalRelation: TotalEq}}
	if len(f.Types) == 1 {
		out.Filters.EventType = string(f.Types[0])
	}
	if !f.Since.IsZero() {
		out.Filters.Since = &f.Since
	}
	if !f.Until.IsZero() {
		out.Filters.Until = &f.Until
	}
	return out
}

// lexical runs the lexical search of req with the given limit.
func (r *Reader) lexical(ctx context.Context, req SearchRequest, scope core.Scope, limit int) (index.Result, error) {
	go r.machineOf(core.SessionID{}) // the tree read beside the index search, for hydrate
	idx, err := r.index()
	if err != nil {
		return index.Result{}, err
	}
	q := index.Query{Text: req.Query, Scope: scope, Filter: req.Filter, Limit: limit, Superseded: r.superseded}
	res, err := idx.Search(ctx, q)
	if errors.Is(err, index.ErrNoSearchableTerms) {
		return index.Result{}, Errorf(CodeInvalidRequest,
			"the query has no searchable words: only common words (the, of, is…) or punctuation")
	}
	if err != nil {
		return index.Result{}, indexError("search failed", err)
	}
	res.Damaged = damagedShards(idx, res.Damaged)
	return res, nil
}

// hydrate reads each hit's event and appends it to the results.
func (r *Reader) hydrate(out *SearchResult, hits []core.Hit) error {
	terms := index.HighlightTerms(out.Query)
	for _, h := range hits {
		ev, err := r.event(h.Chunk, h.EventID)
		if err != nil {
			return err
		}
		out.Results = append(out.Results, SearchHit{Machine: r.machineOf(h.SessionID), CtxSessionID: h.SessionID.String(), CtxEventID: h.EventID.String(),
			RootSessionID: h.RootSessionID.String(), IsSubagent: h.IsSubagent, EventType: string(h.EventType),
			Role: string(h.Role), Provider: h.Provider, Workspace: h.Workspace, Timestamp: h.Timestamp.UTC(),
			Ordinal: ev.Ordinal, Score: h.Score})
		hit := &out.Results[len(out.Results)-1]
		hit.Snippet, hit.Highlights = Snippet(SearchText(ev), terms, SnippetBytes)
	}
	return nil
}

// SearchText is the text of an event as a reader sees it: its text, or its
// command or file paths when it has no text.
func SearchText(e *core.Event) string {
	if e.Text != "" {
		return e.Text
	}
	if e.Command != "" {
		return e.Command
	}
	var paths []string
	for _, f := range e.Files {
		paths = append(paths, f.Path)
	}
	return strings.Join(paths, " ")
}
