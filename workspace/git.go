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
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
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

// ReadGit reads the git state of the work tree that holds dir.
func ReadGit(ctx context.Context, dir string) (*GitState, error) {
	out, err := git(ctx, dir, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal")
	if err != nil {
		return nil, err
	}
	st := &GitState{Staged: []string{}, Modified: []string{}, Untracked: []string{}, Commits: []Commit{}}
	unborn := parseStatus(st, out)
	if unborn {
		st.DiffSummary = "no commits yet"
		return st, nil
	}
	return st, readHistory(ctx, dir, st)
}

// readHistory reads the recent commits and the diff summary, each in its
// own git process at once.
func readHistory(ctx context.Context, dir string, st *GitState) error {
	var diffErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		st.DiffSummary, diffErr = diffSummary(ctx, dir)
	}()
	var err error
	st.Commits, err = readCommits(ctx, dir)
	<-done
	if err != nil {
		return err
	}
	return diffErr
}

// parseStatus fills st from `git status --porcelain=v2 --branch -z` and
// reports whether HEAD has no commit yet.
func parseStatus(st *GitState, out []byte) (unborn bool) {
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
			if len(f) == 9 {
				st.addChange(f[1], f[8])
			} else if len(f) > 1 && r[0] == 'u' {
				g := strings.SplitN(r, " ", 11)
				st.addChange("UU", g[len(g)-1])
			}
		case strings.HasPrefix(r, "2 "):
			f := strings.SplitN(r, " ", 10)
			if len(f) == 10 {
				st.addChange(f[1], f[9])
			}
			i++ // the original path follows
		case strings.HasPrefix(r, "? "):
			st.Untracked = st.add(st.Untracked, r[2:])
		}
	}
	if st.Detached {
		st.Branch = ""
	}
	return unborn
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

// diffSummary is `git diff HEAD --stat` of the work tree (staged and
// unstaged against HEAD), at most MaxDiffFiles files, or "clean".
func diffSummary(ctx context.Context, dir string) (string, error) {
	out, err := git(ctx, dir, "diff", "HEAD", "--no-color", "--no-ext-diff",
		"--stat=120", "--stat-count="+strconv.Itoa(MaxDiffFiles))
	if err != nil {
		return "", err
	}
	s := strings.TrimRight(string(out), "\n")
	if s == "" {
		return "clean", nil
	}
	return s, nil
}
