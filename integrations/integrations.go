package integrations

import (
	"errors"
	"os"
	"path/filepath"
)

// Op is what to do with the server entry.
type Op int

// The operations.
const (
	OpStatus Op = iota
	OpInstall
	OpRemove
)

// State is the state of the server entry in one client's file.
type State string

// The entry states.
const (
	StateAbsent      State = "absent"         // no entry with the server's name
	StateInstalled   State = "installed"      // the entry runs this server
	StateConflicting State = "conflicting"    // the name runs something else
	StateInvalid     State = "invalid_config" // the file cannot be read as configuration
)

// Action is what an install or remove did to one client's file.
type Action string

// The actions.
const (
	ActionAdded     Action = "added"     // the entry was added
	ActionReplaced  Action = "replaced"  // a conflicting entry was replaced (--force)
	ActionRemoved   Action = "removed"   // the entry was deleted
	ActionUnchanged Action = "unchanged" // nothing to do: already installed, or already absent
	ActionSkipped   Action = "skipped"   // a conflicting entry was left untouched
	ActionFailed    Action = "failed"    // the file was left untouched because of an error
)

// ErrorInfo is an error in a report: a stable code and a message.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Report is the outcome for one client.
type Report struct {
	Client        string     `json:"client"`
	Name          string     `json:"name"`
	Scope         Scope      `json:"scope"`
	Path          string     `json:"path"`
	ConfigPresent bool       `json:"config_present"`
	Entry         State      `json:"entry"` // after the operation
	Action        Action     `json:"action,omitempty"`
	Schema        string     `json:"schema,omitempty"`
	Backup        string     `json:"backup,omitempty"`
	Error         *ErrorInfo `json:"error,omitempty"`
	Err           error      `json:"-"`
}

// Options selects the clients and the entry.
type Options struct {
	Env     Env
	Server  Server
	Clients []string // client ids; none means the default selection
	Scope   Scope    // ScopeUser unless set
	Project string   // the project directory, for ScopeProject
	Force   bool     // replace or remove a conflicting entry
}

// Run carries out op for the selected clients. Without named clients,
// status and remove cover every client of the scope and install covers the
// clients that look installed (their configuration directory exists). The
// error is about the selection only; per-client failures are in the reports.
func Run(op Op, opts Options) ([]Report, error) {
	if opts.Scope == "" {
		opts.Scope = ScopeUser
	}
	selected, err := selectClients(op, opts)
	if err != nil {
		return nil, err
	}
	reports := make([]Report, 0, len(selected))
	for _, c := range selected {
		reports = append(reports, runClient(c, op, opts))
	}
	return reports, nil
}

func selectClients(op Op, opts Options) ([]*Client, error) {
	if len(opts.Clients) > 0 {
		return namedClients(opts)
	}
	var out []*Client
	for _, c := range clients {
		if opts.Scope == ScopeProject && !c.HasProjectScope() {
			continue
		}
		if op != OpInstall || detected(c, opts) {
			out = append(out, c)
		}
	}
	return out, nil
}

func namedClients(opts Options) ([]*Client, error) {
	var out []*Client
	seen := map[*Client]bool{}
	for _, id := range opts.Clients {
		c, err := Lookup(id)
		if err != nil {
			return nil, err
		}
		if opts.Scope == ScopeProject && !c.HasProjectScope() {
			return nil, &NoProjectScopeError{Client: c.ID}
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// detected reports whether a client looks installed: its configuration
// directory exists. In a project, Claude Code's .mcp.json is always a
// candidate; other clients need their file or their own directory there.
func detected(c *Client, opts Options) bool {
	if opts.Scope == ScopeUser {
		return exists(c.marker(opts.Env))
	}
	if c.ID == "claude-code" {
		return true
	}
	path := c.project(opts.Project)
	dir := filepath.Dir(path)
	return exists(path) || (filepath.Clean(dir) != filepath.Clean(opts.Project) && exists(dir)) ||
		(c.ID == "opencode" && exists(filepath.Join(opts.Project, ".opencode")))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// maxAttempts bounds the retries when another program rewrites the file
// between ctx reading and replacing it.
const maxAttempts = 3

func runClient(c *Client, op Op, opts Options) Report {
	path := c.Path(opts.Env, opts.Scope, opts.Project)
	r := Report{Client: c.ID, Name: c.Name, Scope: opts.Scope, Path: path}
	last := StateAbsent
	for range maxAttempts {
		f, err := readConfig(path)
		if err != nil {
			return r.fail(StateInvalid, err)
		}
		r.ConfigPresent = f.exists
		res := edit(c, path, f.data, op, opts.Server, opts.Force)
		r.Schema, last = res.schema, res.state
		if res.out == nil {
			return r.finish(res, op)
		}
		backup, err := f.replace(res.out)
		if errors.Is(err, errChanged) {
			continue
		}
		if err != nil {
			return r.fail(res.state, err)
		}
		r.Backup, r.ConfigPresent = backup, true
		return r.finish(res, op)
	}
	return r.fail(last, &ChangedError{Path: path})
}

func edit(c *Client, path string, data []byte, op Op, s Server, force bool) outcome {
	if c.family == familyTOML {
		return editTOML(path, data, op, s, force)
	}
	return editJSON(c, path, data, op, s, force)
}

func (r Report) finish(res outcome, op Op) Report {
	r.Entry = res.state
	switch res.change {
	case changeAdd, changeReplace:
		r.Entry = StateInstalled
	case changeRemove:
		r.Entry = StateAbsent
	}
	if op != OpStatus {
		r.Action = res.action
	}
	if res.err != nil {
		r.Err = res.err
		r.Error = &ErrorInfo{Code: CodeOf(res.err), Message: res.err.Error()}
	}
	return r
}

func (r Report) fail(state State, err error) Report {
	r.Entry, r.Action, r.Err = state, ActionFailed, err
	r.Error = &ErrorInfo{Code: CodeOf(err), Message: err.Error()}
	return r
}
