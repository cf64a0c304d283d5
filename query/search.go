package query

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"ctx/core"
	"ctx/index"
)

// MaxLimit bounds the results of one search.
const MaxLimit = 1000

// SearchRequest is the input of search, from CLI flags or MCP arguments.
type SearchRequest struct {
	Query       string
	Scope       string // "" means all
	EventType   string
	Providers   []string
	Workspace   string
	Since       time.Time
	Until       time.Time
	PrimaryOnly bool
	Limit       int
}

// SearchFilters echoes the resolved filters.
type SearchFilters struct {
	ContentScope core.Scope `json:"content_scope"`
	EventType    string     `json:"event_type,omitempty"`
	Providers    []string   `json:"providers,omitempty"`
	Workspace    string     `json:"workspace,omitempty"`
	Since        *time.Time `json:"since,omitempty"`
	Until        *time.Time `json:"until,omitempty"`
	PrimaryOnly  bool       `json:"primary_only"`
}

// SearchHit is one result.
type SearchHit struct {
	CtxSessionID    string    `json:"ctx_session_id"`
	CtxEventID      string    `json:"ctx_event_id"`
	RootSessionID   string    `json:"root_session_id"`
	IsSubagent      bool      `json:"is_subagent"`
	EventType       string    `json:"event_type"`
	Role            string    `json:"role"`
	Provider        string    `json:"provider"`
	Workspace       string    `json:"workspace"`
	Timestamp       time.Time `json:"timestamp"`
	Ordinal         int       `json:"ordinal"`
	Score           float64   `json:"score"`
	Snippet         string    `json:"snippet"`
	NativeSessionID string    `json:"native_session_id,omitempty"`
}

// SearchMetadata describes how the answer was produced.
type SearchMetadata struct {
	Mode         string `json:"mode"`
	TotalMatches uint64 `json:"total_matches"`
	Returned     int    `json:"returned"`
	Limit        int    `json:"limit"`
	TookMS       int64  `json:"took_ms"`
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
	if req.EventType != "" && req.Scope != "" {
		return "", Errorf(CodeInvalidRequest, "event type and content scope cannot be combined: pass one or the other")
	}
	scope, err := core.ParseScope(req.Scope)
	if err != nil {
		return "", Errorf(CodeInvalidRequest, "invalid content scope: want all, transcript, calls or outputs")
	}
	if req.EventType != "" && !knownType(req.EventType) {
		return "", Errorf(CodeInvalidRequest, "unknown event type (see ctx docs show event-types)")
	}
	if req.Limit == 0 {
		req.Limit = 20
	}
	if req.Limit < 1 || req.Limit > MaxLimit {
		return "", Errorf(CodeInvalidRequest, "limit must be between 1 and %d", MaxLimit)
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && req.Until.Before(req.Since) {
		return "", Errorf(CodeInvalidRequest, "until is before since")
	}
	return scope, nil
}

func knownType(t string) bool {
	for _, k := range core.EventTypes {
		if string(k) == t {
			return true
		}
	}
	return false
}

// Search runs a lexical search over the pinned generation.
func (r *Reader) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	start := time.Now()
	scope, err := req.Validate()
	if err != nil {
		return nil, err
	}
	out := &SearchResult{Generation: r.Ref(), Query: req.Query, Results: []SearchHit{},
		Filters: SearchFilters{ContentScope: scope, EventType: req.EventType, Providers: req.Providers,
			Workspace: req.Workspace, PrimaryOnly: req.PrimaryOnly}}
	if !req.Since.IsZero() {
		out.Filters.Since = &req.Since
	}
	if !req.Until.IsZero() {
		out.Filters.Until = &req.Until
	}
	idx, err := r.index()
	if err != nil {
		return nil, err
	}
	res, err := idx.Search(ctx, index.Query{Text: req.Query, Scope: scope, EventType: core.EventType(req.EventType),
		Providers: req.Providers, Workspace: req.Workspace, Since: req.Since, Until: req.Until,
		PrimaryOnly: req.PrimaryOnly, Limit: req.Limit, Superseded: r.superseded})
	if err != nil {
		return nil, &Error{Code: CodeIndex, Message: "search failed", Err: err}
	}
	terms := queryTerms(req.Query)
	for _, h := range res.Hits {
		ev, err := r.event(h.Chunk, h.EventID)
		if err != nil {
			return nil, err
		}
		out.Results = append(out.Results, SearchHit{CtxSessionID: h.SessionID.String(), CtxEventID: h.EventID.String(),
			RootSessionID: h.RootSessionID.String(), IsSubagent: h.IsSubagent, EventType: string(h.EventType),
			Role: string(h.Role), Provider: h.Provider, Workspace: h.Workspace, Timestamp: h.Timestamp.UTC(),
			Ordinal: ev.Ordinal, Score: h.Score, Snippet: Snippet(SearchText(ev), terms, 240)})
	}
	out.Metadata = SearchMetadata{Mode: "lexical", TotalMatches: res.Total, Returned: len(out.Results),
		Limit: req.Limit, TookMS: time.Since(start).Milliseconds()}
	return out, nil
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

func queryTerms(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	})
}

// Snippet returns about width bytes of text around the first query term,
// on one line.
func Snippet(text string, terms []string, width int) string {
	lower := strings.ToLower(text)
	at := -1
	for _, t := range terms {
		if i := strings.Index(lower, t); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	start := 0
	if at > width/3 {
		start = at - width/3
	}
	for start > 0 && start < len(text) && !utf8.RuneStart(text[start]) {
		start--
	}
	end := min(len(text), start+width)
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	s := strings.Join(strings.Fields(text[start:end]), " ")
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}
