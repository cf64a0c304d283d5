package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var (
	// ErrTransport is returned when git could not reach or update a remote
	// (a bad URL, refused credentials, a dropped connection, a full disk on
	// the remote); the error carries git's own last lines.
	ErrTransport = errors.New("git could not sync with the remote")
	// ErrRejected is returned when the remote refused the update of this
	// machine's ref (it moved meanwhile).
	ErrRejected = errors.New("the remote refused the update of this machine's ref")
	// ErrNoGit is returned when no git executable is on PATH.
	ErrNoGit = errors.New("ctx sync needs git on PATH")
)

// Transport runs the git CLI against remotes, so that the user's credential
// helpers, SSH config, SSH agent and proxies apply as they do for git itself.
type Transport struct {
	// Stderr receives git's progress and prompts; nil discards them.
	Stderr io.Writer
	// Env, when set, is the environment of every git process.
	Env []string
}

// git runs "git [--git-dir=gitDir] [-c config]... sub args...".
func (t *Transport) git(ctx context.Context, gitDir string, config []string, sub string, args ...string) ([]byte, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrNoGit
	}
	var all []string
	if gitDir != "" {
		all = append(all, "--git-dir="+gitDir)
	}
	for _, c := range config {
		all = append(all, "-c", c)
	}
	all = append(append(all, sub), args...)
	cmd := exec.CommandContext(ctx, "git", all...)
	if t.Env != nil {
		cmd.Env = t.Env
	}
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if t.Stderr != nil {
		cmd.Stderr = io.MultiWriter(&errb, t.Stderr)
	}
	if err := cmd.Run(); err != nil {
		msg := lastLines(errb.String(), 4)
		if strings.Contains(msg, "[rejected]") || strings.Contains(msg, "non-fast-forward") || strings.Contains(msg, "fetch first") {
			return nil, fmt.Errorf("%w: %s", ErrRejected, msg)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %v", ErrTransport, ctx.Err())
		}
		return nil, fmt.Errorf("%w: git %s: %s", ErrTransport, sub, msg)
	}
	return out.Bytes(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}

// MachineRefs lists the machine refs of a remote (git ls-remote).
func (t *Transport) MachineRefs(ctx context.Context, url string) (map[string]plumbing.Hash, error) {
	out, err := t.git(ctx, "", nil, "ls-remote", url, RefPrefix+"*")
	if err != nil {
		return nil, err
	}
	return parseRefs(out, RefPrefix), nil
}

// parseRefs reads "<hash>\t<ref>" lines, keeping the machine refs under
// prefix by machine id.
func parseRefs(out []byte, prefix string) map[string]plumbing.Hash {
	refs := map[string]plumbing.Hash{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		h, name, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			h, name, ok = strings.Cut(sc.Text(), " ")
		}
		machine, found := strings.CutSuffix(strings.TrimPrefix(name, prefix), "/active")
		if !ok || !found || !strings.HasPrefix(name, prefix) || !ValidMachine(machine) || !plumbing.IsHash(h) {
			continue
		}
		refs[machine] = plumbing.NewHash(h)
	}
	return refs
}

// fetch brings every machine ref of the remote into the mirror's fetched
// namespace (forced there, so that a rewritten remote history is seen and
// judged rather than refused by git).
func (t *Transport) fetch(ctx context.Context, m *Mirror, url string) error {
	_, err := t.git(ctx, m.Dir, nil, "fetch", "--quiet", "--no-tags", "--prune", url,
		"+"+RefPrefix+"*:"+fetchedPrefix+"*")
	return err
}

// fetchOwn brings this machine's ref from the remote into the mirror (a
// mirror lost or made anew resumes from what the remote holds).
func (t *Transport) fetchOwn(ctx context.Context, m *Mirror, url, machine string) error {
	ref := MachineRef(machine).String()
	_, err := t.git(ctx, m.Dir, nil, "fetch", "--quiet", "--no-tags", url, ref+":"+ref)
	return err
}

// push sends this machine's ref, never forced: git moves a remote ref only
// after every object it names is there, so an interrupted push leaves the
// remote as it was.
func (t *Transport) push(ctx context.Context, m *Mirror, url, machine string) error {
	ref := MachineRef(machine).String()
	_, err := t.git(ctx, m.Dir, []string{"pack.window=0"}, "push", "--quiet", "--no-verify", url, ref+":"+ref)
	return err
}
