package mcp

import (
	"context"
)

const blameDescription = "Trace committed file lines, a commit, or a pull request range to the agent " +
	"sessions and events that produced them. Not built yet: every call returns the tool error " +
	"not_available; use search with the file name or commit message instead."

// blameInput names what to trace: a file with an optional line range, a
// commit, or a pull request range.
type blameInput struct {
	File      string `json:"file,omitempty" jsonschema:"A file path inside the repository."`
	StartLine int    `json:"start_line,omitempty" jsonschema:"First line of the range (1-based)."`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"Last line of the range (inclusive)."`
	Commit    string `json:"commit,omitempty" jsonschema:"A commit to list the evidence of."`
	PR        string `json:"pr,omitempty" jsonschema:"A range BASE..HEAD to aggregate."`
	Repo      string `json:"repo,omitempty" jsonschema:"The repository directory (absolute)."`
}

func blameTool() toolDef {
	return defineTool[blameInput, ErrorObject]("blame", "Blame lines to agent evidence", blameDescription, nil, runBlame)
}

func runBlame(context.Context, *Server, *blameInput) (*reply, error) {
	return nil, failf(CodeNotAvailable, "blame is not built yet in this version of ctx: search for the file "+
		"name, function or commit message instead")
}
