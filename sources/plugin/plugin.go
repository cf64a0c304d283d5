// Package plugin reads history from an external command that prints
// normalized JSON Lines (docs/plugin-sources.md, schema version 1).
//
// Vocabulary:
//   - Header: the first line, {"ctx_plugin": 1}; any other version is
//     refused as a whole (plugin_failed) so a newer plugin never half-imports.
//   - Session record: {"type":"session","id":…} with optional parent_id,
//     root_id, workspace, git_branch, model, title.
//   - Event record: {"type":"event","session":<id>,"key":…} with the
//     normalized event fields; key must be stable for the event.
package plugin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"ctx/core"
)

// SchemaVersion is the plugin output schema this package reads.
const SchemaVersion = 1

// DefaultTimeout bounds a plugin run when the config names none.
const DefaultTimeout = 60 * time.Second

// MaxOutput bounds what a plugin may print in one run.
const MaxOutput = 1 << 30

// Provider runs one configured plugin command.
type Provider struct {
	name    string
	command []string
	timeout time.Duration
}

// New returns a provider for the plugin.
func New(name string, command []string, timeout time.Duration) *Provider {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Provider{name: name, command: command, timeout: timeout}
}

// Name is the plugin's name, used as its provider id.
func (p *Provider) Name() string { return p.name }

// Volatile: a plugin is run on every import.
func (p *Provider) Volatile() bool { return true }

// Discover returns the one virtual source file of the plugin.
func (p *Provider) Discover(core.Env) ([]core.SourceFile, []core.Problem) {
	return []core.SourceFile{{Provider: p.name, Path: "plugin:" + p.name}}, nil
}

// Parse runs the command and reads its output.
func (p *Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.command[0], p.command[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &limitWriter{w: &out, n: MaxOutput}
	if err := cmd.Run(); err != nil {
		return core.ParseResult{}, &core.ReadError{Code: core.ProblemPluginFailed, Err: fmt.Errorf("plugin %s: %w", p.name, err)}
	}
	res, err := ParseOutput(&out, p.name, f)
	if err != nil {
		return core.ParseResult{}, &core.ReadError{Code: core.ProblemPluginFailed, Err: err}
	}
	return res, nil
}

type limitWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitWriter) Write(b []byte) (int, error) {
	if l.w.Len()+len(b) > l.n {
		return 0, errors.New("plugin output exceeds the limit")
	}
	return l.w.Write(b)
}

type record struct {
	Version   *int   `json:"ctx_plugin"`
	Type      string `json:"type"`
	ID        string `json:"id"`
	ParentID  string `json:"parent_id"`
	RootID    string `json:"root_id"`
	Workspace string `json:"workspace"`
	Branch    string `json:"git_branch"`
	Model     string `json:"model"`
	Title     string `json:"title"`
	Session   string `json:"session"`
	Key       string `json:"key"`
}

// event is the event record's normalized fields.
type event struct {
	Timestamp time.Time        `json:"timestamp"`
	Role      core.Role        `json:"role"`
	Type      core.EventType   `json:"event_type"`
	Text      string           `json:"text"`
	Tool      string           `json:"tool"`
	CallID    string           `json:"call_id"`
	Command   string           `json:"command"`
	ExitCode  *int             `json:"exit_code"`
	Files     []core.FileTouch `json:"files"`
}
