package sources

import (
	"fmt"
	"sort"
	"strings"

	"ctx/config"
	"ctx/core"
	"ctx/sources/aider"
	"ctx/sources/amp"
	"ctx/sources/claude"
	"ctx/sources/cline"
	"ctx/sources/codex"
	"ctx/sources/copilot"
	"ctx/sources/cursor"
	"ctx/sources/gemini"
	"ctx/sources/opencode"
	"ctx/sources/reported"
)

// Builtin returns every built-in provider, in a stable order.
func Builtin() []core.Provider {
	ps := []core.Provider{claude.New(), codex.New(), gemini.New(), copilot.New(), amp.New(), cursor.New(), opencode.New()}
	ps = append(ps, cline.All()...)
	return append(ps, aider.New(), reported.New())
}

// Names returns the provider ids of ps.
func Names(ps []core.Provider) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name()
	}
	return out
}

// Select returns the providers named in only (all when only is empty), or an
// error naming the valid ids when a name is unknown.
func Select(all []core.Provider, only []string) ([]core.Provider, error) {
	if len(only) == 0 {
		return all, nil
	}
	by := map[string]core.Provider{}
	for _, p := range all {
		by[p.Name()] = p
	}
	var out []core.Provider
	for _, name := range only {
		p, ok := by[name]
		if !ok {
			valid := Names(all)
			sort.Strings(valid)
			return nil, fmt.Errorf("unknown provider (valid: %s)", strings.Join(valid, ", "))
		}
		out = append(out, p)
	}
	return out, nil
}

// Rooted is implemented by providers that keep their history under one
// directory (after environment overrides).
type Rooted interface {
	Root(env core.Env) string
}

// Selection is how a source is selected (spec 000): automatic rows have
// null root and group; configured rows name them.
type Selection struct {
	Kind  string  `json:"kind"` // automatic or configured
	Root  *string `json:"root"`
	Group *string `json:"group"`
}

// SourceRow is one row of the sources read model.
type SourceRow struct {
	Provider  string         `json:"provider"`
	Selection Selection      `json:"selection"`
	Location  string         `json:"location,omitempty"`
	Present   bool           `json:"present"`
	Files     int            `json:"files"`
	Issues    []core.Problem `json:"issues"`
	Truncated bool           `json:"issues_truncated"`
}

// Report is the sources read model.
type Report struct {
	AutomaticDiscovery bool        `json:"automatic_discovery"`
	Sources            []SourceRow `json:"sources"`
}

// MaxIssues bounds the discovery issues reported per source.
const MaxIssues = 20

// Discover lists every planned source without reading any history.
func Discover(env core.Env, cfg *config.Config, planned []core.Source, exists func(string) bool) *Report {
	rep := &Report{AutomaticDiscovery: cfg.Automatic(), Sources: []SourceRow{}}
	for _, src := range planned {
		files, problems := src.Discover(env)
		row := SourceRow{Provider: src.Provider.Name(), Selection: Selection{Kind: src.Kind}, Files: len(files),
			Issues: []core.Problem{}}
		switch {
		case src.Kind == core.KindConfigured:
			root := src.Root
			row.Selection.Root = &root
			if src.Group != "" {
				group := src.Group
				row.Selection.Group = &group
			}
			row.Location, row.Present = src.Dir, exists(src.Dir)
		case src.Kind == core.KindPlugin:
			row.Present = true
		default:
			if r, ok := src.Provider.(Rooted); ok {
				row.Location = r.Root(env)
			}
			// A provider without a root of its own (Aider: logs in hooked
			// repositories) is present when it found files.
			row.Present = (row.Location != "" && exists(row.Location)) || len(files) > 0
		}
		if len(problems) > MaxIssues {
			problems, row.Truncated = problems[:MaxIssues], true
		}
		row.Issues = append(row.Issues, problems...)
		rep.Sources = append(rep.Sources, row)
	}
	return rep
}
