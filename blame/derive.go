package blame

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Bounds of the searches for the commits a new commit was derived from.
const (
	maxFolded     = 1000 // commits a reset --soft folds into one
	maxBranchScan = 200  // commits of other branches a merge --squash may fold
	maxCandidates = 50   // noted commits carried from for one merge --squash
)

// State is what the git directory says about the commit just made. It is
// read with one git process and a few small file reads, so post-commit can
// tell a cherry-pick, a squash or a rebase from a plain commit at no cost.
type State struct {
	InRebase       bool
	CherryPickHead string // the commit being picked; "" when none
	OrigHead       string // ORIG_HEAD; "" when none
	// Reflog is HEAD's last two reflog entries, oldest first (fewer when
	// the reflog is short or off).
	Reflog []ReflogEntry
}

// ReflogEntry is one line of HEAD's reflog.
type ReflogEntry struct{ Old, New, Msg string }

// stateNames are the git paths State reads.
var stateNames = []string{"rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "ORIG_HEAD", "logs/HEAD"}

func stateArgs() []string {
	var args []string
	for _, n := range stateNames {
		args = append(args, "--git-path", n)
	}
	return args
}

// State reads the repository's in-progress state.
func (r *Repo) State(ctx context.Context) (*State, error) {
	args := append([]string{"rev-parse"}, stateArgs()...)
	out, err := r.Git(ctx, args...)
	if err != nil {
		return nil, err
	}
	paths := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(paths) != len(stateNames) {
		return nil, &GitError{Args: args, Stderr: "unexpected output: " + out}
	}
	return readState(paths, r.Root), nil
}

// OpenRepoState is OpenRepo and State with one git process: what
// post-commit needs first.
func OpenRepoState(ctx context.Context, dir string) (*Repo, *State, error) {
	return openRepoState(ctx, dir, nil)
}

// openRepoState is OpenRepoState with git run in env (see Repo.env).
func openRepoState(ctx context.Context, dir string, env []string) (*Repo, *State, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("repository %s: %w", dir, err)
	}
	args := append([]string{"rev-parse", "--show-toplevel", "--git-common-dir"}, stateArgs()...)
	out, err := gitEnv(ctx, abs, nil, env, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 2+len(stateNames) {
		return nil, nil, &GitError{Args: args, Stderr: "unexpected output: " + out}
	}
	r := &Repo{Root: strings.TrimSpace(lines[0]), common: strings.TrimSpace(lines[1]), env: env}
	if !filepath.IsAbs(r.common) {
		r.common = filepath.Join(abs, r.common)
	}
	return r, readState(lines[2:], abs), nil
}

// readState reads the state files at paths (relative ones against base).
func readState(paths []string, base string) *State {
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			paths[i] = filepath.Join(base, p)
		}
	}
	st := &State{}
	for _, p := range paths[:2] {
		if _, err := os.Stat(p); err == nil {
			st.InRebase = true
		}
	}
	st.CherryPickHead = readID(paths[2])
	st.OrigHead = readID(paths[3])
	st.Reflog = reflogTail(paths[4])
	return st
}

// InRebase reports whether a rebase is in progress (post-commit then leaves
// linking to post-rewrite, which carries the notes).
func (r *Repo) InRebase(ctx context.Context) bool {
	st, err := r.State(ctx)
	return err == nil && st.InRebase
}

var hexID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`) })

// readID reads a file holding one object id; "" when absent or not an id.
func readID(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	id := strings.TrimSpace(string(b))
	if !hexID().MatchString(id) {
		return ""
	}
	return id
}

// reflogTail reads the last two entries of a reflog file from its last
// 8 KiB.
func reflogTail(path string) []ReflogEntry {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	off := max(fi.Size()-8192, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(buf), "\n"), "\n")
	if off > 0 && len(lines) > 0 {
		lines = lines[1:] // may start mid-line
	}
	var out []ReflogEntry
	for _, l := range lines[max(len(lines)-2, 0):] {
		head, msg, ok := strings.Cut(l, "\t")
		f := strings.Fields(head)
		if !ok || len(f) < 2 {
			continue
		}
		out = append(out, ReflogEntry{Old: f[0], New: f[1], Msg: msg})
	}
	return out
}

var (
	pickedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\(cherry picked from commit ([0-9a-f]{40})\)\s*$`)
	})
	squashedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^commit ([0-9a-f]{40})\s*$`) })
)

const squashHeader = "Squashed commit of the following:"

// derivedFrom names the commits whose notes a commit made without
// post-rewrite should carry: the source of a cherry-pick ("cherry picked
// from" trailer, else CHERRY_PICK_HEAD, else the noted commit with the same
// author, date and subject, preferring an equal patch-id), the commits a
// merge --squash or a reset --soft folded into it. A plain commit costs
// string checks only.
func (r *Repo) derivedFrom(ctx context.Context, c *CommitInfo, st *State) ([]string, error) {
	var out []string
	for _, m := range pickedRe().FindAllStringSubmatch(c.Message, -1) {
		out = append(out, m[1])
	}
	if st.CherryPickHead != "" && st.CherryPickHead != c.ID {
		out = append(out, st.CherryPickHead)
	}
	var last, prev *ReflogEntry
	if k := len(st.Reflog); k > 0 && st.Reflog[k-1].New == c.ID {
		last = &st.Reflog[k-1]
		if k > 1 {
			prev = &st.Reflog[k-2]
		}
	}
	picked := last != nil && (strings.HasPrefix(last.Msg, "cherry-pick") || strings.HasPrefix(last.Msg, "commit (cherry-pick)"))
	if picked && len(out) == 0 {
		src, err := r.pickSources(ctx, c)
		if err != nil {
			return nil, err
		}
		out = append(out, src...)
	}
	if i := strings.Index(c.Message, squashHeader); i >= 0 {
		for _, m := range squashedRe().FindAllStringSubmatch(c.Message[i:], -1) {
			out = append(out, m[1])
		}
	}
	plain := last != nil && strings.HasPrefix(last.Msg, "commit: ")
	switch {
	case plain && prev != nil && strings.HasPrefix(prev.Msg, "reset: moving to") && c.Parent != "" &&
		prev.New == c.Parent && prev.Old != c.Parent && hexID().MatchString(prev.Old):
		// reset --soft (or --mixed) then commit: the commits reset away.
		ids, err := r.revList(ctx, "--no-merges", "-n", strconv.Itoa(maxFolded), c.Parent+".."+prev.Old)
		if err != nil {
			return nil, err
		}
		out = append(out, ids...)
	case plain && len(out) == 0 && c.Parent != "" && st.OrigHead == c.Parent:
		// merge --squash with a message of the user's own: the noted
		// commits of other branches, matched by content.
		ids, err := r.revList(ctx, "--no-merges", "-n", strconv.Itoa(maxBranchScan), "--branches", "--not", c.Parent)
		if err != nil {
			return nil, err
		}
		noted, err := r.notedCommits(ctx)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if noted[id] && len(out) < maxCandidates {
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return slices.DeleteFunc(slices.Compact(out), func(id string) bool { return id == c.ID }), nil
}

// pickSources finds the source of a cherry-pick made without -x once
// CHERRY_PICK_HEAD is gone (a pick continued after a conflict): the noted
// commits with the pick's author, author date and subject. Those whose
// patch-id (git patch-id --stable) equals the pick's are preferred; when
// none does (the conflict changed the patch) all are kept, and only their
// lines the pick left unchanged carry.
func (r *Repo) pickSources(ctx context.Context, c *CommitInfo) ([]string, error) {
	noted, err := r.notedCommits(ctx)
	if err != nil || len(noted) == 0 {
		return nil, err
	}
	var in strings.Builder
	for id := range noted {
		in.WriteString(id + "\n")
	}
	out, err := r.GitIn(ctx, []byte(in.String()), "log", "--no-walk=unsorted", "--ignore-missing", "--stdin",
		"--format=%H%x00%ae %at%x00%s")
	if err != nil {
		return nil, err
	}
	var cands []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.SplitN(l, "\x00", 3)
		if len(f) == 3 && f[0] != c.ID && f[1] == c.Author && f[2] == c.Subject {
			cands = append(cands, f[0])
		}
	}
	if len(cands) < 2 {
		return cands, nil
	}
	ids, err := r.patchIDs(ctx, append([]string{c.ID}, cands...))
	if err != nil {
		return nil, err
	}
	var same []string
	for _, id := range cands {
		if p := ids[id]; p != "" && p == ids[c.ID] {
			same = append(same, id)
		}
	}
	if len(same) > 0 {
		return same, nil
	}
	return cands, nil
}

// patchIDs returns git patch-id --stable of each commit.
func (r *Repo) patchIDs(ctx context.Context, commits []string) (map[string]string, error) {
	diff, err := r.GitIn(ctx, []byte(strings.Join(commits, "\n")+"\n"), "diff-tree", "-p", "-r", "--stdin",
		"--no-color", "--no-ext-diff", "--no-textconv")
	if err != nil {
		return nil, err
	}
	out, err := r.GitIn(ctx, []byte(diff), "patch-id", "--stable")
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			ids[f[1]] = f[0]
		}
	}
	return ids, nil
}

// notedCommits lists the commits that have a ctx note.
func (r *Repo) notedCommits(ctx context.Context) (map[string]bool, error) {
	out, err := r.Git(ctx, "notes", "--ref", NotesRef, "list")
	if err != nil {
		return map[string]bool{}, nil // no notes ref yet
	}
	noted := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			noted[f[1]] = true
		}
	}
	return noted, nil
}

func (r *Repo) revList(ctx context.Context, args ...string) ([]string, error) {
	out, err := r.Git(ctx, append([]string{"rev-list"}, args...)...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

// LinkResult is what LinkFrom carried.
type LinkResult struct {
	Commit  string   `json:"commit"`
	Sources []string `json:"sources"`           // the noted commits matched against
	Lines   int      `json:"lines"`             // lines of the commit with evidence afterwards
	Files   []string `json:"files"`             // files with line evidence afterwards
	Note    *Note    `json:"-"`                 // the note written; nil when none
	Skipped []string `json:"skipped,omitempty"` // problems that did not stop the link
}

// LinkFrom matches commit rev by content against the notes of the commits
// in rng (a rev-list range such as BASE..HEAD) and writes the carried
// evidence into rev's note: for a commit made where no hook ran, such as a
// forge's squash merge of a pull request whose commits' notes are here. An
// empty rng means the noted commits of local branches that rev does not
// contain (the most recent 200 commits). Only lines the squash left as the
// pull request's commits wrote them carry.
func LinkFrom(ctx context.Context, repo *Repo, rev, rng string) (*LinkResult, error) {
	return linkFrom(ctx, repo, rev, rng, nil)
}

// linkFrom is LinkFrom with the noted commits already listed (nil: list
// them).
func linkFrom(ctx context.Context, repo *Repo, rev, rng string, noted map[string]bool) (*LinkResult, error) {
	c, err := repo.Commit(ctx, rev)
	if err != nil {
		return nil, err
	}
	var ids []string
	if rng == "" {
		ids, err = repo.revList(ctx, "--no-merges", "-n", strconv.Itoa(maxBranchScan), "--branches", "--not", c.ID)
	} else {
		ids, err = repo.revList(ctx, "--no-merges", "--end-of-options", rng)
		if err != nil {
			err = fmt.Errorf("%w: %s", ErrBadRevision, rng)
		}
	}
	if err != nil {
		return nil, err
	}
	if noted == nil {
		if noted, err = repo.notedCommits(ctx); err != nil {
			return nil, err
		}
	}
	res := &LinkResult{Commit: c.ID, Sources: []string{}, Files: []string{}}
	for _, id := range ids {
		if noted[id] && id != c.ID {
			res.Sources = append(res.Sources, id)
		}
	}
	if len(res.Sources) == 0 {
		return res, nil
	}
	added, err := repo.AddedLines(ctx, c)
	if err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) { res.Skipped = append(res.Skipped, fmt.Sprintf(format, args...)) }
	carried, err := carryFrom(ctx, repo, c, added, res.Sources, logf)
	if err != nil {
		return nil, err
	}
	if res.Note, err = writeMerged(ctx, repo, c.ID, carried, logf); err != nil || res.Note == nil {
		return res, err
	}
	lines := map[string]bool{}
	for _, r := range res.Note.Records {
		if r.File == nil {
			continue
		}
		if !slices.Contains(res.Files, *r.File) {
			res.Files = append(res.Files, *r.File)
		}
		for _, l := range expand(r.Lines) {
			lines[fmt.Sprintf("%s:%d", *r.File, l)] = true
		}
	}
	slices.Sort(res.Files)
	res.Lines = len(lines)
	return res, nil
}
