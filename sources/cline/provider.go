package cline

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"ctx/core"
	"ctx/sources/regular"
)

// Provider ids of the three agents this package reads.
const (
	ProviderCline    = "cline"
	ProviderRooCode  = "roo-code"
	ProviderKiloCode = "kilo-code"
)

// VS Code extension ids, the names of the agents' globalStorage dirs.
const (
	ExtensionCline    = "saoudrizwan.claude-dev"
	ExtensionRooCode  = "rooveterinaryinc.roo-cline"
	ExtensionKiloCode = "kilocode.kilo-code"
)

// Task file names.
const (
	APIFile         = "api_conversation_history.json"
	UIFile          = "ui_messages.json"
	MetadataFile    = "task_metadata.json"
	HistoryItemFile = "history_item.json"
)

// Provider discovers and parses the tasks of one of the three extensions.
type Provider struct {
	name string
	ext  string
}

var (
	_ core.Provider       = (*Provider)(nil)
	_ core.RootDiscoverer = (*Provider)(nil)
)

// ErrUnknownProvider is returned by New for an id it does not serve.
var ErrUnknownProvider = errors.New("cline: unknown provider id (want cline, roo-code or kilo-code)")

// New returns the provider with the given id: cline, roo-code or kilo-code.
func New(provider string) (*Provider, error) {
	switch provider {
	case ProviderCline:
		return NewCline(), nil
	case ProviderRooCode:
		return NewRooCode(), nil
	case ProviderKiloCode:
		return NewKiloCode(), nil
	}
	return nil, ErrUnknownProvider
}

// NewCline returns the Cline provider (extension saoudrizwan.claude-dev).
func NewCline() *Provider { return &Provider{name: ProviderCline, ext: ExtensionCline} }

// NewRooCode returns the Roo Code provider (rooveterinaryinc.roo-cline).
func NewRooCode() *Provider { return &Provider{name: ProviderRooCode, ext: ExtensionRooCode} }

// NewKiloCode returns the Kilo Code provider (kilocode.kilo-code).
func NewKiloCode() *Provider { return &Provider{name: ProviderKiloCode, ext: ExtensionKiloCode} }

// All returns the three providers in a stable order.
func All() []core.Provider {
	return []core.Provider{NewCline(), NewRooCode(), NewKiloCode()}
}

// Name returns the provider id.
func (p *Provider) Name() string { return p.name }

// ExtensionID returns the VS Code extension id whose storage is read.
func (p *Provider) ExtensionID() string { return p.ext }

// Task is the content of one task directory. Primary is the content of the
// SourceFile: api_conversation_history.json, or ui_messages.json when the
// task has no API history (UIOnly). The companions are nil when absent.
type Task struct {
	Primary     []byte
	UIOnly      bool
	UI          []byte
	Metadata    []byte
	HistoryItem []byte
}

// isUIFile reports whether a source file is a UI log (ui_messages*.json).
func isUIFile(path string) bool {
	return strings.HasPrefix(filepath.Base(path), "ui_messages")
}

// Parse reads one task: its API history (or UI log) and the companions in
// the same directory. It fails only when the file itself cannot be read;
// an error for a file that vanished wraps fs.ErrNotExist.
func (p *Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	data, err := regular.ReadFile(f.Path)
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("%s: read task file: %w", p.name, err)
	}
	t := Task{Primary: data, UIOnly: isUIFile(f.Path)}
	dir := filepath.Dir(f.Path)
	var problems []core.Problem
	read := func(name string) []byte {
		b, pr := regular.ReadCompanion(filepath.Join(dir, name), p.name)
		if pr != nil {
			problems = append(problems, *pr)
		}
		return b
	}
	if !t.UIOnly {
		t.UI = read(UIFile)
	}
	t.Metadata = read(MetadataFile)
	t.HistoryItem = read(HistoryItemFile)
	res := p.ParseTask(t, f)
	res.Problems = append(problems, res.Problems...)
	return res, nil
}

// ParseTask parses a task's files; f names the source file (companion paths
// in problems are its siblings). It is pure, the fuzzing entry point. A
// file that is not valid JSON (caught mid-rewrite) yields an invalid_json
// problem naming it and no session, so the previous import stays.
func (p *Provider) ParseTask(t Task, f core.SourceFile) core.ParseResult {
	b := newBuilder(p.name, f)
	rows, ok := b.decodeArray(t.Primary, f.Path)
	if !ok {
		return b.finish()
	}
	b.companions(t)
	b.now = b.created()
	if t.UIOnly {
		b.parseUIOnly(rows)
	} else {
		b.parseAPI(t, rows)
	}
	return b.finish()
}
