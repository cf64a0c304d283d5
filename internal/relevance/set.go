package relevance

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ctx/core"
)

// Kinds of known-item queries, in report order.
var Kinds = []string{"keyword", "phrase", "identifier", "path", "error", "command", "question"}

// Judged is a known-item query and the events that answer it.
type Judged struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Query string `json:"query"`
	// Mode is the search mode (lexical when empty; questions use hybrid).
	Mode string `json:"mode,omitempty"`
	// Scope is the content scope ("" means all).
	Scope string `json:"scope,omitempty"`
	// Target selects the acceptable answers; any one of them counts.
	Target Target `json:"target"`
	// Why says what the target is, for a person reviewing the set.
	Why string `json:"why"`
}

// Target names acceptable answers by what they are, not by id: event ids
// of some providers depend on where their files lie (Aider's session is
// its log's path), so an id would not survive a move. An event is a target
// when it is of the provider, of one of the types (any when empty), and its
// text, command and file paths (one per line) match the regular expression
// (case-insensitive, ^ and $ at line ends).
type Target struct {
	Provider string   `json:"provider,omitempty"`
	Types    []string `json:"types,omitempty"`
	Match    string   `json:"match"`
	re       *regexp.Regexp
}

// Accepts reports whether an event of the provider is a target.
func (t *Target) Accepts(provider string, e *core.Event) bool {
	if t.Provider != "" && provider != t.Provider {
		return false
	}
	if len(t.Types) > 0 && !slices.Contains(t.Types, string(e.Type)) {
		return false
	}
	return t.re.MatchString(searchable(e))
}

// searchable is what a target's expression is matched against.
func searchable(e *core.Event) string {
	parts := []string{e.Text, e.Command}
	for _, f := range e.Files {
		parts = append(parts, f.Path)
	}
	return strings.Join(parts, "\n")
}

// Set is a judged relevance set.
type Set struct {
	Queries []Judged `json:"queries"`
}

//go:embed judged.json
var judgedJSON []byte

// Default returns the judged set kept in the repository.
func Default() (*Set, error) { return Parse(judgedJSON) }

// ErrBadSet marks a malformed judged set.
var ErrBadSet = errors.New("relevance: bad judged set")

// Parse decodes and checks a judged set: known kinds, unique ids, at least
// a query and a target expression that compiles, each.
func Parse(data []byte) (*Set, error) {
	var s Set
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSet, err)
	}
	seen := map[string]bool{}
	for i := range s.Queries {
		q := &s.Queries[i]
		switch {
		case q.ID == "" || seen[q.ID]:
			return nil, fmt.Errorf("%w: missing or repeated id %q", ErrBadSet, q.ID)
		case !knownKind(q.Kind):
			return nil, fmt.Errorf("%w: %s: unknown kind %q", ErrBadSet, q.ID, q.Kind)
		case strings.TrimSpace(q.Query) == "" || q.Target.Match == "":
			return nil, fmt.Errorf("%w: %s: needs a query and a target", ErrBadSet, q.ID)
		}
		seen[q.ID] = true
		re, err := regexp.Compile("(?im)" + q.Target.Match)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: target: %w", ErrBadSet, q.ID, err)
		}
		q.Target.re = re
	}
	return &s, nil
}

func knownKind(k string) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}
