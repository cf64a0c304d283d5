package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNotRepo means the directory is not inside a git repository.
var ErrNotRepo = errors.New("not inside a git repository")

// Dir returns the top-level directory of the repository around repoDir and
// its hooks directory (git rev-parse --git-path hooks: core.hooksPath and
// linked worktrees included).
func Dir(ctx context.Context, repoDir string) (root, hooksDir string, err error) {
	abs, err := filepath.Abs(repoDir)
	if err != nil {
		return "", "", fmt.Errorf("repository %s: %w", repoDir, err)
	}
	out, err := git(ctx, abs, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", abs, ErrNotRepo)
	}
	root = strings.TrimSpace(out)
	out, err = git(ctx, root, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", "", fmt.Errorf("hooks directory: %w", err)
	}
	p := strings.TrimSpace(out)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return root, filepath.Clean(p), nil
}

// git runs one read-only git query in dir.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %s: %w", strings.Join(args, " "), strings.TrimSpace(stderr.String()), err)
	}
	return stdout.String(), nil
}
