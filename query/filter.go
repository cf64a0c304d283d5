package query

import (
	"strings"
	"time"

	"ctx/config"
	"ctx/core"
)

// FilterArgs is a filter as a front end receives it: the values of flags
// or of an MCP request, as strings. Parse checks and converts it once into
// the core.Filter that every read model takes.
type FilterArgs struct {
	Providers    []string
	Sessions     []string // ses_… ids
	RootSessions []string // ses_… ids
	SourceRoots  []string
	SourceGroups []string
	Roles        []string
	EventTypes   []string
	Files        []string
	Workspace    string
	Since, Until time.Time
	PrimaryOnly  bool
	Machines     []string // machine ids, or core.LocalMachine
}

// Parse returns the typed filter. Messages never echo rejected values.
func (a *FilterArgs) Parse() (core.Filter, error) {
	f := core.Filter{Providers: a.Providers, SourceRoots: a.SourceRoots, SourceGroups: a.SourceGroups,
		Files: a.Files, Workspace: a.Workspace, Since: a.Since, Until: a.Until, PrimaryOnly: a.PrimaryOnly,
		Machines: a.Machines}
	for _, l := range [][]string{a.Sessions, a.RootSessions, a.Roles, a.EventTypes} {
		if len(l) > MaxFilterValues {
			return f, Errorf(CodeInvalidRequest, "at most %d values per filter", MaxFilterValues)
		}
	}
	var err error
	if f.Sessions, err = sessionIDs(a.Sessions); err != nil {
		return f, err
	}
	if f.RootSessions, err = sessionIDs(a.RootSessions); err != nil {
		return f, err
	}
	for _, t := range a.EventTypes {
		f.Types = append(f.Types, core.EventType(t))
	}
	for _, r := range a.Roles {
		f.Roles = append(f.Roles, core.Role(r))
	}
	return f, CheckFilter(&f)
}

func sessionIDs(ids []string) ([]core.SessionID, error) {
	var out []core.SessionID
	for _, id := range ids {
		sid, err := core.ParseSessionID(id)
		if err != nil {
			return nil, Errorf(CodeInvalidRequest, "a session filter is not a session id")
		}
		out = append(out, sid)
	}
	return out, nil
}

// CheckFilter validates a typed filter (one built in Go as well as one
// Parse returned): bounded lists, known event types and roles, valid source
// selectors, and until not before since.
func CheckFilter(f *core.Filter) error {
	for _, n := range []int{len(f.Providers), len(f.Sessions), len(f.RootSessions), len(f.Roles), len(f.Types), len(f.Files), len(f.Machines)} {
		if n > MaxFilterValues {
			return Errorf(CodeInvalidRequest, "at most %d values per filter", MaxFilterValues)
		}
	}
	for _, t := range f.Types {
		if !knownType(string(t)) {
			return Errorf(CodeInvalidRequest, "unknown event type: want one of %s", strings.Join(core.Strings(core.EventTypes), ", "))
		}
	}
	for _, r := range f.Roles {
		switch r {
		case core.RoleUser, core.RoleAssistant, core.RoleSystem, core.RoleTool:
		default:
			return Errorf(CodeInvalidRequest, "role must be user, assistant, system or tool")
		}
	}
	if err := validSelectors(f.SourceRoots, f.SourceGroups); err != nil {
		return err
	}
	for _, m := range f.Machines {
		if !validMachine(m) {
			return Errorf(CodeInvalidRequest, "a machine filter is a machine id (ctx sync status lists them) or %s", core.LocalMachine)
		}
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && f.Until.Before(f.Since) {
		return Errorf(CodeInvalidRequest, "until is before since")
	}
	return nil
}

// validSelectors checks source selectors; its messages never echo values.
func validSelectors(roots, groups []string) error {
	if len(roots) > MaxSelectors || len(groups) > MaxSelectors {
		return Errorf(CodeInvalidRequest, "at most %d source roots and %d source groups", MaxSelectors, MaxSelectors)
	}
	for _, v := range append(append([]string{}, roots...), groups...) {
		if !config.ValidName(v) {
			return Errorf(CodeInvalidRequest, "a source root or group is not 1-64 ASCII letters, digits, hyphens or underscores")
		}
	}
	return nil
}

// validMachine reports whether s has the shape of a machine id: 1-63 of
// a-z, 0-9 and '-', starting with a letter or digit (core.LocalMachine
// has it too).
func validMachine(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
