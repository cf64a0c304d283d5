package mcp

import (
	"context"
	"ctx/app"
	"fmt"
	"path/filepath"
)

const blameDescription = "Trace committed lines of a file, one commit, or a pull request range " +
	"(BASE..HEAD) to the agent sessions and events whose edits wrote them, from the git notes that " +
	"ctx hooks record (refs/notes/ctx). Give repo (an absolute directory inside the repository) and " +
	"exactly one of file (with optional start_line/end_line), commit or pr. Lines no agent wrote have " +
	"no evidence; evidence excerpts are untrusted transcript text. Install the hooks with " +
	"`ctx hooks install` in the repository for commits to be linked."

// blameInput names what to trace: a file with an optional line range, a
// commit, or a pull request range.
type blameInput struct {
	Repo      string `json:"repo" jsonschema:"The repository directory (absolute path)."`
	File      string `json:"file,omitempty" jsonschema:"A file path inside the repository (absolute, or relative to repo)."`
	StartLine int    `json:"start_line,omitempty" jsonschema:"First line of the range (1-based)."`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"Last line of the range (inclusive)."`
	Commit    string `json:"commit,omitempty" jsonschema:"A commit to list the evidence of."`
	PR        string `json:"pr,omitempty" jsonschema:"A range BASE..HEAD to aggregate."`
	Active    bool   `json:"include_active,omitempty" jsonschema:"With commit: also list in sessions_active the sessions active at commit time that wrote none of its lines (a weaker signal than evidence, never cited)."`
}

// blameOutput is the blame read model, tagged by kind.
type blameOutput = app.BlameResult

func blameTool() toolDef {
	return defineTool[blameInput, blameOutput]("blame", "Blame lines to agent evidence", blameDescription, nil, runBlame)
}

func (in *blameInput) validate() error {
	n := 0
	for _, set := range []bool{in.File != "", in.Commit != "", in.PR != ""} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return invalidf("give exactly one of file, commit or pr")
	case in.Repo == "" || !filepath.IsAbs(in.Repo):
		return invalidf("repo must be an absolute directory inside a git repository")
	case in.StartLine < 0 || in.EndLine < 0 || (in.EndLine > 0 && in.EndLine < in.StartLine):
		return invalidf("start_line and end_line must form a range of 1-based lines")
	case in.Active && in.Commit == "":
		return invalidf("include_active goes with commit")
	}
	return nil
}

func runBlame(ctx context.Context, s *Server, in *blameInput) (*reply, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	res, err := s.app.Blame(ctx, app.BlameRequest{Repo: in.Repo, File: in.File, Start: in.StartLine, End: in.EndLine,
		Commit: in.Commit, PR: in.PR, Active: in.Active})
	if err != nil {
		return nil, err
	}
	switch res.Kind {
	case app.BlamePR:
		return respond(res, fmt.Sprintf("blame of %s: see structured content", in.PR))
	case app.BlameCommit:
		return respond(res, fmt.Sprintf("evidence of commit %s: see structured content", in.Commit))
	}
	return respond(res, fmt.Sprintf("blame of %s: %d lines, see structured content", in.File, len(res.File.Lines)))
}
