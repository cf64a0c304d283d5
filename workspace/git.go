package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// MaxStatusPaths bounds each of staged, modified and untracked.
const MaxStatusPaths = 200

// RecentCommits is how many commits gitState lists.
const RecentCommits = 10

// ErrNoRepository is returned when the root is not inside a git work tree.
var ErrNoRepository = errors.New("not a git repository")

// ErrNoGit is returned when the git command is not installed.
var ErrNoGit = errors.New("git is not installed")

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "--no-optional-locks"}, args...)...)
	// Paths from the status are passed back as literal pathspecs (a file
	// named ":(top)x" or "*.go" means itself).
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_LITERAL_PATHSPECS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return nil, ErrNoGit
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "not a git repository") {
			return nil, ErrNoRepository
		}
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, firstLine(msg))
	}
	return out, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ReadGit reads the git state of the work tree that holds dir. The
// status and the recent commits are read by two git processes at once; the
// diff summary only when the status lists changes, and then only over the
// changed paths (a clean tree needs no third process, and a dirty one
// never makes git compare the whole tree twice).
func ReadGit(ctx context.Context, dir string) (*GitState, error) {
	type logResult struct {
		commits []Commit
		err     error
	}
	logged := make(chan logResult, 1)
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		c, err := readCommits(lctx, dir)
		logged <- logResult{c, err}
	}()
	out, err := git(ctx, dir, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal")
	if err != nil {
		return nil, err
	}
	st := &GitState{Staged: []string{}, Modified: []string{}, Untracked: []string{}, Commits: []Commit{}}
	unborn, changed := parseStatus(st, out)
	if unborn {
		st.DiffSummary = "no commits yet" // git log fails on an unborn branch: its answer is not wanted
		return st, nil
	}
	if len(changed) == 0 {
		st.DiffSummary = "clean"
	} else if st.DiffSummary, err = diffSummary(ctx, dir, changed); err != nil {
		return nil, err
	}
	l := <-logged
	st.Commits = l.commits
	return st, l.err
}

// maxDiffPaths bounds the paths the diff summary is asked about.
const maxDiffPaths = 2 * MaxStatusPaths

// parseStatus fills st from `git status --porcelain=v2 --branch -z` and
// reports whether HEAD has no commit yet and which tracked paths differ
// from HEAD (a rename's both paths).
func parseStatus(st *GitState, out []byte) (unborn bool, changed []string) {
	change := func(path string) {
		if len(changed) < maxDiffPaths {
			changed = append(changed, path)
		}
	}
	recs := strings.Split(string(out), "\x00")
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		switch {
		case strings.HasPrefix(r, "# branch.oid "):
			oid := strings.TrimPrefix(r, "# branch.oid ")
			unborn = oid == "(initial)"
			if !unborn && len(oid) >= 12 {
				st.Head = oid[:12]
			}
		case strings.HasPrefix(r, "# branch.head "):
			head := strings.TrimPrefix(r, "# branch.head ")
			if head == "(detached)" {
				st.Detached = true
			} else {
				st.Branch = head
			}
		case strings.HasPrefix(r, "# branch.upstream "):
			st.Upstream = strings.TrimPrefix(r, "# branch.upstream ")
		case strings.HasPrefix(r, "# branch.ab "):
			fmt.Sscanf(strings.TrimPrefix(r, "# branch.ab "), "+%d -%d", &st.Ahead, &st.Behind)
		case strings.HasPrefix(r, "1 "), strings.HasPrefix(r, "u "):
			f := strings.SplitN(r, " ", 9)
			if len(f) == 9 && r[0] == '1' {
				st.addChange(f[1], f[8])
				change(f[8])
			} else if r[0] == 'u' {
				g := strings.SplitN(r, " ", 11)
				st.addChange("UU", g[len(g)-1])
				change(g[len(g)-1])
			}
		case strings.HasPrefix(r, "2 "):
			f := strings.SplitN(r, " ", 10)
			if len(f) == 10 {
				st.addChange(f[1], f[9])
				change(f[9])
			}
			if i+1 < len(recs) {
				change(recs[i+1]) // the original path follows
			}
			i++
		case strings.HasPrefix(r, "? "):
			st.Untracked = st.add(st.Untracked, r[2:])
		}
	}
	if st.Detached {
		st.Branch = ""
	}
	return unborn, changed
}

func (st *GitState) addChange(xy, path string) {
	if len(xy) != 2 {
		return
	}
	if xy[0] != '.' {
		st.Staged = st.add(st.Staged, path)
	}
	if xy[1] != '.' {
		st.Modified = st.add(st.Modified, path)
	}
}

func (st *GitState) add(list []string, path string) []string {
	if len(list) >= MaxStatusPaths {
		st.Truncated = true
		return list
	}
	return append(list, path)
}

func readCommits(ctx context.Context, dir string) ([]Commit, error) {
	out, err := git(ctx, dir, "log", "-n", strconv.Itoa(RecentCommits), "--no-color",
		"--format=%H%x1f%an%x1f%aI%x1f%s%x1e")
	if err != nil {
		return nil, err
	}
	commits := []Commit{}
	for _, rec := range strings.Split(string(out), "\x1e") {
		f := strings.Split(strings.TrimLeft(rec, "\n"), "\x1f")
		if len(f) != 4 {
			continue
		}
		when, _ := time.Parse(time.RFC3339, f[2])
		commits = append(commits, Commit{Hash: f[0], Author: f[1], Date: when.UTC(), Subject: f[3]})
	}
	return commits, nil
}

// MaxDiffFiles bounds the per-file lines of diffSummary.
const MaxDiffFiles = 30

// diffSummary is `git diff HEAD --stat` of the changed paths (staged and
// unstaged against HEAD), at most MaxDiffFiles files, or "clean".
func diffSummary(ctx context.Context, dir string, paths []string) (string, error) {
	args := append([]string{"diff", "HEAD", "--no-color", "--no-ext-diff",
		"--stat=120", "--stat-count=" + strconv.Itoa(MaxDiffFiles), "--"}, paths...)
	out, err := git(ctx, dir, args...)
	if err != nil {
		return "", err
	}
	s := strings.TrimRight(string(out), "\n")
	if s == "" {
		return "clean", nil
	}
	return s, nil
}
