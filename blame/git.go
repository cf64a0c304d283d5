package blame

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Conditions a caller branches on; each message is a complete answer.
var (
	ErrNotRepo       = errors.New("not inside a git repository")
	ErrNoCommits     = errors.New("the repository has no commits yet")
	ErrOutside       = errors.New("the path is outside the repository")
	ErrBinary        = errors.New("the file is binary: blame works on text lines")
	ErrNotTracked    = errors.New("the file is not tracked at HEAD")
	ErrBadRevision   = errors.New("unknown revision")
	ErrBadNote       = errors.New("the note is not ctx JSON Lines")
	ErrNewerNote     = errors.New("the note was written by a newer ctx")
	ErrNoLinesInFile = errors.New("the line range is outside the file")
	ErrNoParent      = errors.New("the commit's parent is not in this repository")
)

// GitError is a git command that failed, with its stderr.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *GitError) Unwrap() error { return e.Err }

// Repo is a git working tree addressed by its top-level directory.
type Repo struct {
	Root   string // absolute top-level directory (git rev-parse --show-toplevel)
	common string // absolute git common directory; "" until known
	// env, when set, is the git environment of the process the work is
	// done for (a hook's, forwarded to the daemon): git runs with it
	// instead of this process's GIT_* variables.
	env []string

	rootSpellings []string // roots(), once worked out
}

// OpenRepo finds the repository that contains dir.
func OpenRepo(ctx context.Context, dir string) (*Repo, error) { return openRepo(ctx, dir, nil) }

// openRepo is OpenRepo with git run in env (see Repo.env).
func openRepo(ctx context.Context, dir string, env []string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", dir, err)
	}
	out, err := gitEnv(ctx, abs, nil, env, "rev-parse", "--show-toplevel", "--git-common-dir")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	r := &Repo{Root: strings.TrimSpace(lines[0]), env: env}
	if len(lines) == 2 {
		r.common = strings.TrimSpace(lines[1])
		if !filepath.IsAbs(r.common) {
			r.common = filepath.Join(abs, r.common)
		}
	}
	return r, nil
}

// Shallow returns the boundary commits of a shallow clone (their parents
// were not fetched), nil for a complete repository.
func (r *Repo) Shallow(ctx context.Context) map[string]bool {
	if r.common == "" {
		out, err := r.Git(ctx, "rev-parse", "--git-common-dir")
		if err != nil {
			return nil
		}
		r.common = strings.TrimSpace(out)
		if !filepath.IsAbs(r.common) {
			r.common = filepath.Join(r.Root, r.common)
		}
	}
	data, err := os.ReadFile(filepath.Join(r.common, "shallow"))
	if err != nil {
		return nil
	}
	var out map[string]bool
	for _, l := range strings.Fields(string(data)) {
		if out == nil {
			out = map[string]bool{}
		}
		out[l] = true
	}
	return out
}

// shallowHint is said after a revision that cannot be found in a shallow
// clone.
const shallowHint = " (this is a shallow clone: history before its boundary commits is not here; git fetch --unshallow brings it)"

// Git runs git in the repository and returns its stdout.
func (r *Repo) Git(ctx context.Context, args ...string) (string, error) {
	return gitEnv(ctx, r.Root, nil, r.env, args...)
}

// GitIn runs git with stdin.
func (r *Repo) GitIn(ctx context.Context, stdin []byte, args ...string) (string, error) {
	return gitEnv(ctx, r.Root, stdin, r.env, args...)
}

func gitOut(ctx context.Context, dir string, stdin []byte, args ...string) (string, error) {
	return gitEnv(ctx, dir, stdin, nil, args...)
}

// gitEnv runs git with env in place of this process's git environment
// (nil: this process's).
func gitEnv(ctx context.Context, dir string, stdin []byte, env []string, args ...string) (string, error) {
	extra := []string{"GIT_TERMINAL_PROMPT=0", "LC_ALL=C"}
	if env != nil {
		extra = append(append([]string{}, env...), extra...)
	}
	return runGit(ctx, dir, stdin, env != nil, extra, args...)
}

// gitRemote runs a git command that talks to a remote on the user's
// behalf (ctx notes fetch|push): git may ask for credentials on the
// terminal as git fetch and git push would.
func (r *Repo) gitRemote(ctx context.Context, args ...string) (string, error) {
	return runGit(ctx, r.Root, nil, false, []string{"LC_ALL=C"}, args...)
}

// runGit runs git in dir with this process's environment and env after it;
// own drops this process's GIT_* variables first (env brings its own).
func runGit(ctx context.Context, dir string, stdin []byte, own bool, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	base := os.Environ()
	if own {
		base = slices.DeleteFunc(base, func(kv string) bool { return strings.HasPrefix(kv, "GIT_") })
	}
	cmd.Env = append(base, env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), &GitError{Args: args, Stderr: stderr.String(), Err: err}
	}
	return stdout.String(), nil
}

// Resolve returns the full commit id of rev; a repository without commits
// is ErrNoCommits.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	out, err := r.Git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err == nil {
		return strings.TrimSpace(out), nil
	}
	if _, herr := r.Git(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); herr != nil {
		return "", ErrNoCommits
	}
	return "", r.badRevision(ctx, rev)
}

// badRevision is ErrBadRevision for rev, with a hint in a shallow clone.
func (r *Repo) badRevision(ctx context.Context, rev string) error {
	if r.Shallow(ctx) != nil {
		return fmt.Errorf("%w: %s%s", ErrBadRevision, rev, shallowHint)
	}
	return fmt.Errorf("%w: %s", ErrBadRevision, rev)
}

// GitPath returns the absolute path of git rev-parse --git-path name.
func (r *Repo) GitPath(ctx context.Context, name string) (string, error) {
	out, err := r.Git(ctx, "rev-parse", "--git-path", name)
	if err != nil {
		return "", err
	}
	p := strings.TrimSpace(out)
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.Root, p)
	}
	return filepath.Clean(p), nil
}

// Rel returns path relative to the repository root with forward slashes,
// resolving a relative path against base; ErrOutside when it is not in the
// repository.
func (r *Repo) Rel(base, path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	path = filepath.Clean(path)
	for _, root := range r.roots() {
		rel, err := filepath.Rel(root, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel), nil
		}
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		return r.Rel(base, real)
	}
	return "", fmt.Errorf("%s: %w", path, ErrOutside)
}

// roots are the spellings of the root: as git prints it, and with symlinks
// resolved (/tmp and /private/tmp on macOS). Rel runs for every file an
// event touched, so they are worked out once.
func (r *Repo) roots() []string {
	if r.rootSpellings != nil && r.rootSpellings[0] == r.Root {
		return r.rootSpellings
	}
	out := []string{r.Root}
	if real, err := filepath.EvalSymlinks(r.Root); err == nil && real != r.Root {
		out = append(out, real)
	}
	r.rootSpellings = out
	return out
}
