package integrations

import (
	"errors"
	"fmt"
)

// Stable error codes, reported per client in JSON output.
const (
	CodeInvalidConfig     = "invalid_config"     // the file does not parse or has an unusable shape
	CodeConflictingEntry  = "conflicting_entry"  // a different server is configured under the name
	CodeUnsupportedLayout = "unsupported_layout" // the entry exists in a form ctx cannot edit safely
	CodeConfigChanged     = "config_changed"     // another program kept rewriting the file
	CodeIO                = "io_error"           // reading or writing the file failed
)

// InvalidConfigError reports a configuration file that does not parse, or
// whose server table is not an object. The file is never written.
type InvalidConfigError struct {
	Path   string
	Reason string
	Err    error
}

func (e *InvalidConfigError) Error() string {
	msg := fmt.Sprintf("invalid configuration %s: %s", e.Path, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *InvalidConfigError) Unwrap() error { return e.Err }

// ConflictError reports an entry with the server's name that runs a
// different command. It is left untouched unless the operation is forced.
type ConflictError struct {
	Path    string
	Name    string
	Command string // the command found, "" when the entry has none
}

func (e *ConflictError) Error() string {
	found := "an entry without a local command"
	if e.Command != "" {
		found = fmt.Sprintf("command %q", e.Command)
	}
	return fmt.Sprintf("%s: server %q already runs %s; left untouched (use --force to replace it)",
		e.Path, e.Name, found)
}

// UnsupportedLayoutError reports an entry ctx recognizes but cannot edit
// without touching unrelated configuration, such as a Codex server written
// as an inline table. The file is left untouched.
type UnsupportedLayoutError struct {
	Path   string
	Reason string
}

func (e *UnsupportedLayoutError) Error() string {
	return fmt.Sprintf("%s: %s; edit the file by hand (ctx docs show mcp-integrations)", e.Path, e.Reason)
}

// ChangedError reports a file that changed between reading and replacing it
// on every attempt.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s kept changing while ctx edited it; try again once the client is idle", e.Path)
}

// UnknownClientError reports a client name that is not supported.
type UnknownClientError struct {
	Name  string
	Known []string
}

// Error does not repeat the rejected name.
func (e *UnknownClientError) Error() string {
	return "unknown client (clients: " + joinNames(e.Known) + ")"
}

// NoProjectScopeError reports a client without a project-scope file.
type NoProjectScopeError struct{ Client string }

func (e *NoProjectScopeError) Error() string {
	return fmt.Sprintf("client %s has no project-scope configuration", e.Client)
}

// CodeOf returns the stable code of an error from this package.
func CodeOf(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.As(err, new(*InvalidConfigError)):
		return CodeInvalidConfig
	case errors.As(err, new(*ConflictError)):
		return CodeConflictingEntry
	case errors.As(err, new(*UnsupportedLayoutError)):
		return CodeUnsupportedLayout
	case errors.As(err, new(*ChangedError)):
		return CodeConfigChanged
	}
	return CodeIO
}
