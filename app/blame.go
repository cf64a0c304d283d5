package app

import (
	"context"
	"errors"
	"os"

	"ctx/blame"
	"ctx/query"
	"ctx/wake"
)

// BlameRequest names what to trace: a file with an optional line range, a
// commit, or a pull request range, in the repository around Repo.
type BlameRequest struct {
	Repo       string // a directory inside the repository
	File       string // a path, absolute or relative to Dir
	Dir        string // what a relative File is resolved against; "" is the repository's top level
	Start, End int    // the line range of File (1-based, inclusive); 0 is the whole file
	Commit     string // a commit to list the evidence of
	PR         string // a range BASE..HEAD to aggregate
	// Active also lists, for Commit, the sessions active in the repository
	// at commit time that wrote none of its lines (never cited).
	Active bool
}

// BlameResult is one of the three blame read models, tagged by kind (file,
// commit or pr): the MCP blame structuredContent; the CLI prints the view
// that is set.
type BlameResult struct {
	Kind   string            `json:"kind" jsonschema:"file, commit or pr: which of the other fields is set."`
	File   *blame.FileView   `json:"file,omitempty"`
	Commit *blame.CommitView `json:"commit,omitempty"`
	PR     *blame.PRView     `json:"pr,omitempty"`
}

// Blame kinds.
const (
	BlameFile   = "file"
	BlameCommit = "commit"
	BlamePR     = "pr"
)

// Blame joins git blame with the notes ctx hooks write and resolves their
// evidence in the active generation.
func (a *App) Blame(ctx context.Context, req BlameRequest) (*BlameResult, error) {
	n := 0
	for _, set := range []bool{req.File != "", req.Commit != "", req.PR != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, query.Errorf(query.CodeInvalidRequest, "give exactly one of a file, a commit or a pull request range")
	}
	if req.Start < 0 || req.End < 0 || (req.End > 0 && req.End < req.Start) {
		return nil, query.Errorf(query.CodeInvalidRequest, "the line range must be 1-based lines A <= B")
	}
	ctx, cancel := context.WithCancel(ctx) // stops an early git blame on the way out
	defer cancel()
	fr := blame.FileRequest{Path: req.File, Dir: req.Dir, Start: req.Start, End: req.End}
	if req.File != "" && req.Dir != "" { // paths are known: git blame can start now
		blame.StartBlame(ctx, &fr)
	}
	repo, err := blame.OpenRepo(ctx, req.Repo)
	if err != nil {
		return nil, blameErr(err)
	}
	if req.PR != "" {
		v, err := blame.BlamePR(ctx, repo, req.PR)
		if err != nil {
			return nil, blameErr(err)
		}
		return &BlameResult{Kind: BlamePR, PR: v}, nil
	}
	var res *BlameResult
	err = a.readOptional(ctx, func(rd *query.Reader) error {
		rs := blame.NewResolver(rd)
		if req.Commit != "" {
			v, err := blame.BlameCommitWith(ctx, repo, req.Commit, rs, blame.CommitOptions{Active: req.Active})
			res = &BlameResult{Kind: BlameCommit, Commit: v}
			return err
		}
		if fr.Dir == "" {
			fr.Dir = repo.Root
		}
		v, err := blame.BlameFile(ctx, repo, fr, rs)
		res = &BlameResult{Kind: BlameFile, File: v}
		return err
	})
	if err != nil {
		return nil, blameErr(err)
	}
	return res, nil
}

// readOptional is read for a use case that also answers without a store:
// fn gets a nil Reader when nothing has been imported.
func (a *App) readOptional(ctx context.Context, fn func(*query.Reader) error) error {
	err := a.read(ctx, fn)
	if query.CodeOf(err) == query.CodeNoHistory {
		return fn(nil)
	}
	return err
}

// blameUserErrors are the blame conditions the input is at fault for.
var blameUserErrors = []error{blame.ErrNotRepo, blame.ErrOutside, blame.ErrBinary, blame.ErrNotTracked,
	blame.ErrBadRevision, blame.ErrNoCommits, blame.ErrNoLinesInFile}

// blameErr makes the blame package's user errors invalid_request; their
// message is the condition's own, which names no input value.
func blameErr(err error) error {
	for _, e := range blameUserErrors {
		if errors.Is(err, e) {
			return &query.Error{Code: query.CodeInvalidRequest, Message: e.Error(), Err: err}
		}
	}
	return err
}

// LinkSquash gives commit rev (made where no hook ran: a forge's squash
// merge) the evidence of the commits in from (BASE..HEAD; "" for the noted
// commits of local branches rev does not contain), matched by content.
func (a *App) LinkSquash(ctx context.Context, repoDir, rev, from string) (*blame.LinkResult, error) {
	repo, err := blame.OpenRepo(ctx, repoDir)
	if err != nil {
		return nil, blameErr(err)
	}
	res, err := blame.LinkFrom(ctx, repo, rev, from)
	if err != nil {
		return nil, blameErr(err)
	}
	return res, nil
}

// HookRun is the work of one git hook; app fills in the refresh.
type HookRun = blame.HookRun

// RunHook does a hook's work (ctx hooks run, called by the scripts ctx
// hooks install writes): it brings the store up to date as configured
// (bounded), then links, rewrites or carries the notes. A running daemon
// does post-commit's work, warm, while the hook waits; a hook that finds
// none starts one after its work, as a read does. Problems go to the hooks
// log; a hook never fails a commit.
func (a *App) RunHook(ctx context.Context, h HookRun) error {
	h.Home, h.Refresh, h.RefreshHere, h.ViaDaemon = a.home, a.Refresh, a.refreshHere, true
	h.StartDaemon = func() {
		if exe, err := os.Executable(); err == nil {
			_ = wake.StartAsConfigured(a.home, a.env, exe)
		}
	}
	if h.Now == nil {
		h.Now = a.now
	}
	return blame.RunHook(ctx, h)
}
