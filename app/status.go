package app

import (
	"context"
	"errors"
	"os"
	"strings"

	"ctx/blame"
	"ctx/config"
	"ctx/core"
	"ctx/hooks"
	"ctx/query"
	"ctx/wake"
)

// AttributionSchema is the version of the attribution observation.
const AttributionSchema = 3

// StatusReport is the status read model: ctx status --format json prints
// it and the MCP status tool returns it unchanged as structuredContent.
// It is the store's history report (query.Status: generation, sources,
// problems, index, semantic, upgrade, read_only) plus the attribution
// observation of the current repository, the daemon's state and the
// compact local usage report.
type StatusReport struct {
	*query.Status
	Attribution Attribution      `json:"attribution" jsonschema:"Schema-3 attribution observation of the current git repository: ctx hooks installed, commits with ctx notes."`
	Daemon      wake.Info        `json:"daemon" jsonschema:"Whether the store's daemon runs, its pid, last generation and lag."`
	LocalUsage  query.LocalUsage `json:"local_usage" jsonschema:"Compact local usage accounting: enablement, state and versions only."`
	Config      ConfigState      `json:"config" jsonschema:"config.toml: where it is, and why it cannot be used (its path and line, never its contents)."`
	// ProblemFiles are the source files whose last import counted
	// problems (at most MaxProblemFiles; ProblemFilesTotal counts all).
	ProblemFiles      []query.ProblemFile `json:"problem_files" jsonschema:"Source files whose last import counted problems: path and counts by code."`
	ProblemFilesTotal int                 `json:"problem_files_total"`
}

// MaxProblemFiles bounds the problem files status lists.
const MaxProblemFiles = 20

// ConfigState is what status says of config.toml.
type ConfigState struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	OK     bool   `json:"ok"`
	Error  string `json:"error,omitempty"` // why it cannot be used
	Line   int    `json:"line,omitempty"`  // the line the error points at (1-based)
}

// configState reads config.toml as every command does.
func configState(env core.Env, err error) ConfigState {
	cs := ConfigState{Path: config.Path(env), OK: err == nil}
	_, statErr := os.Stat(cs.Path)
	cs.Exists = statErr == nil
	var ce *config.Error
	if errors.As(err, &ce) {
		cs.Error, cs.Line = ce.Msg, ce.Line
	} else if err != nil {
		cs.Error = err.Error()
	}
	return cs
}

// Attribution is the attribution observation (schema 3) of one
// repository: whether ctx's hooks link its commits and whether it holds
// ctx notes. Outside a git repository InRepository is false and Hooks and
// Notes are null.
type Attribution struct {
	Schema       int               `json:"schema"`
	InRepository bool              `json:"in_repository"`
	Repository   string            `json:"repository,omitempty"` // its top-level directory (a local hint)
	Hooks        *AttributionHooks `json:"hooks"`
	Notes        *AttributionNotes `json:"notes"`
	Problems     []string          `json:"problems"`
}

// AttributionHooks is what ctx hooks status reports, read-only.
type AttributionHooks struct {
	// Installed is true when every ctx hook is installed.
	Installed bool              `json:"installed"`
	HooksDir  string            `json:"hooks_dir"`
	Hooks     []hooks.HookState `json:"hooks"`
	Manager   string            `json:"manager,omitempty"` // husky, lefthook or pre-commit when one owns the hooks
}

// AttributionNotes describes refs/notes/ctx of the repository.
type AttributionNotes struct {
	Ref    string `json:"ref"`
	Exists bool   `json:"exists"`
	Count  int    `json:"count"` // commits with a ctx note
}

// Status returns the status read model (ctx status, MCP status), with the
// attribution observation of the git repository around repo ("" observes
// none). It only reads: it imports, initializes and refreshes nothing, and
// never creates the store. A store with nothing imported has a nil
// Generation.
func (a *App) Status(ctx context.Context, repo string) (*StatusReport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	qo := query.StatusOptions{Getenv: a.env.Get}
	cfg, cfgErr := config.Load(a.env)
	if cfgErr == nil {
		qo.Semantic = cfg.SemanticConfig()
	} else {
		qo.SemanticErr = cfgErr
	}
	st, err := query.ReadStatusWith(a.home, qo) // creates nothing when nothing is published
	if err != nil {
		return nil, err
	}
	rep := &StatusReport{Status: st, Attribution: ReadAttribution(ctx, a.home, repo),
		Daemon: wake.State(a.home), LocalUsage: query.ReadLocalUsage(a.home), Config: configState(a.env, cfgErr),
		ProblemFiles: []query.ProblemFile{}}
	if st.Generation != nil {
		_ = a.read(ctx, func(r *query.Reader) (err error) {
			rep.ProblemFiles, rep.ProblemFilesTotal, err = r.ProblemFiles(MaxProblemFiles)
			return err
		})
		if rep.ProblemFiles == nil {
			rep.ProblemFiles = []query.ProblemFile{}
		}
	}
	return rep, nil
}

// ReadAttribution observes the repository around dir: ctx's hooks (read
// as ctx hooks status reads them) and refs/notes/ctx.
func ReadAttribution(ctx context.Context, home, dir string) Attribution {
	a := Attribution{Schema: AttributionSchema, Problems: []string{}}
	if dir == "" {
		return a
	}
	res, err := hooks.Status(ctx, hooks.Options{Repo: dir, Home: home})
	if errors.Is(err, hooks.ErrNotRepo) {
		return a
	}
	if err != nil {
		a.Problems = append(a.Problems, "hooks status: "+err.Error())
		return a
	}
	a.InRepository, a.Repository = true, res.Repo
	h := &AttributionHooks{Installed: true, HooksDir: res.HooksDir, Hooks: res.Hooks}
	for _, s := range res.Hooks {
		if s.State != hooks.StateInstalled {
			h.Installed = false
		}
	}
	if res.Manager != nil {
		h.Manager = res.Manager.Name
	}
	a.Hooks = h
	a.Problems = append(a.Problems, res.Problems...)
	a.Notes = readNotes(ctx, res.Repo)
	return a
}

// readNotes counts the commits with a ctx note.
func readNotes(ctx context.Context, root string) *AttributionNotes {
	n := &AttributionNotes{Ref: blame.NotesRef}
	repo := &blame.Repo{Root: root}
	if _, err := repo.Git(ctx, "rev-parse", "--verify", "--quiet", blame.NotesRef); err != nil {
		return n
	}
	n.Exists = true
	out, err := repo.Git(ctx, "notes", "--ref", blame.NotesRef, "list")
	if err != nil {
		return n
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) != "" {
			n.Count++
		}
	}
	return n
}
