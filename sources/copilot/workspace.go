package copilot

import (
	"path/filepath"

	"github.com/goccy/go-yaml"

	"ctx/core"
	"ctx/sources/regular"
)

// WorkspaceFile is the metadata file beside a session's events.jsonl.
const WorkspaceFile = "workspace.yaml"

// Workspace is a session's workspace.yaml, rewritten by Copilot as the
// session goes on (summary, updated_at).
type Workspace struct {
	ID         string `yaml:"id"`
	Cwd        string `yaml:"cwd"`
	GitRoot    string `yaml:"git_root"`
	Repository string `yaml:"repository"`
	HostType   string `yaml:"host_type"`
	Branch     string `yaml:"branch"`
	Summary    string `yaml:"summary"`
	CreatedAt  string `yaml:"created_at"`
	UpdatedAt  string `yaml:"updated_at"`
}

// workspacePath returns the workspace.yaml of a directory-layout session
// (…/<uuid>/events.jsonl), or "".
func workspacePath(eventsPath string) string {
	if filepath.Base(eventsPath) != EventsFile {
		return ""
	}
	return filepath.Join(filepath.Dir(eventsPath), WorkspaceFile)
}

// readWorkspace reads a workspace.yaml. A missing file is no problem; an
// unreadable or invalid one is reported and ignored.
func readWorkspace(path string) (*Workspace, *core.Problem) {
	b, problem := regular.ReadCompanion(path, ProviderID)
	if b == nil {
		return nil, problem
	}
	w, err := ParseWorkspace(b)
	if err != nil {
		return nil, &core.Problem{Code: core.ProblemInvalidRecord, Provider: ProviderID, Path: path}
	}
	return w, nil
}

// ParseWorkspace decodes workspace.yaml text.
func ParseWorkspace(b []byte) (*Workspace, error) {
	var w Workspace
	if err := yaml.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	return &w, nil
}
