package hooks

import (
	"context"
	"ctx/blame"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type sandbox struct {
	t        *testing.T
	dir, bin string
	home     string
}

// newSandbox makes a repository with one commit and a stand-in ctx binary
// that records its arguments and stdin (git itself is real).
func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	base := t.TempDir()
	s := &sandbox{t: t, dir: filepath.Join(base, "repo"), bin: filepath.Join(base, "fakectx"), home: filepath.Join(base, "store")}
	t.Setenv("HOME", base)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(base, ".gitconfig"))
	t.Setenv("CTX_HOME", "")
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\n{ echo \"ctx $*\"; cat; } >>\"" + filepath.Join(base, "calls") + "\"\nexit 3\n"
	if err := os.WriteFile(s.bin, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	s.git("init", "-q", "-b", "main")
	s.git("config", "user.name", "T")
	s.git("config", "user.email", "t@example.com")
	s.commitFile("a.txt", "a\n", "init")
	return s
}

func (s *sandbox) git(args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (s *sandbox) commitFile(name, body, msg string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.dir, name), []byte(body), 0o600); err != nil {
		s.t.Fatal(err)
	}
	s.git("add", name)
	s.git("commit", "-q", "-m", msg)
}

func (s *sandbox) opts() Options { return Options{Repo: s.dir, Binary: s.bin, Home: s.home} }

func (s *sandbox) calls() string {
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(s.dir), "calls"))
	return string(b)
}

// TestInstallChainRemove: an existing hook is chained with the same args
// and stdin, install is idempotent, and remove restores the exact bytes and
// mode.
func TestInstallChainRemove(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	hooksDir := filepath.Join(s.dir, ".git", "hooks")
	log := filepath.Join(filepath.Dir(s.dir), "chained")
	orig := "#!/bin/sh\n{ echo \"orig $*\"; cat; } >>\"" + log + "\"\nexit 7\n"
	if err := os.WriteFile(filepath.Join(hooksDir, "post-rewrite"), []byte(orig), 0o750); err != nil {
		t.Fatal(err)
	}
	res, err := Install(ctx, s.opts())
	if err != nil || len(res.Changed) != len(Names) {
		t.Fatalf("install: %+v %v", res, err)
	}
	if res.Hooks[1].State != StateInstalled || !res.Hooks[1].Chained {
		t.Fatalf("status %+v", res.Hooks)
	}
	if res, err = Install(ctx, s.opts()); err != nil || len(res.Changed) != 0 {
		t.Fatalf("second install changed %v (%v)", res.Changed, err)
	}
	old := s.git("rev-parse", "HEAD")
	s.git("commit", "-q", "--amend", "-m", "amended") // the hooks exit non-zero inside: the commit succeeds
	nw := s.git("rev-parse", "HEAD")
	want := old + " " + nw
	if c := s.calls(); !strings.Contains(c, "ctx hooks run post-commit") || !strings.Contains(c, "ctx hooks run post-rewrite amend\n"+want) {
		t.Fatalf("ctx calls:\n%s", c)
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), "orig amend\n"+want) {
		t.Fatalf("chained hook got:\n%s", b)
	}
	if _, err := Remove(ctx, s.opts()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(hooksDir, "post-rewrite"))
	fi, _ := os.Stat(filepath.Join(hooksDir, "post-rewrite"))
	if err != nil || string(b) != orig || fi.Mode().Perm() != 0o750 {
		t.Fatalf("not restored: %q %v", b, fi.Mode())
	}
	if _, err := os.Lstat(filepath.Join(hooksDir, "post-commit")); !os.IsNotExist(err) {
		t.Fatalf("post-commit left behind: %v", err)
	}
}

// TestHooksPathAndManagers: core.hooksPath is honoured; Husky, Lefthook and
// pre-commit setups get instructions and no files.
func TestHooksPathAndManagers(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.git("config", "core.hooksPath", "myhooks")
	res, err := Install(ctx, s.opts())
	if err != nil || res.HooksDir != filepath.Join(s.dir, "myhooks") || res.Hooks[0].State != StateInstalled {
		t.Fatalf("hooksPath: %+v %v", res, err)
	}
	for name, setup := range map[string]string{"husky": ".husky/pre-commit", "lefthook": "lefthook.yml",
		"pre-commit": ".pre-commit-config.yaml"} {
		t.Run(name, func(t *testing.T) {
			s := newSandbox(t)
			p := filepath.Join(s.dir, setup)
			_ = os.MkdirAll(filepath.Dir(p), 0o700)
			if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			res, err := Install(ctx, s.opts())
			if err != nil || res.Manager == nil || res.Manager.Name != name || !strings.Contains(res.Manager.Instructions, "ctx hooks run post-commit") {
				t.Fatalf("%+v %v", res, err)
			}
			if res.Hooks[0].State != StateMissing {
				t.Fatalf("wrote a hook under %s", name)
			}
		})
	}
}

// TestRunLogsProblems: a hook run that fails logs, and status shows it.
func TestRunLogsProblems(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	err := blame.RunHook(ctx, blame.HookRun{Hook: "post-nothing", Dir: s.dir, Home: s.home})
	if err == nil {
		t.Fatal("want an error for an unknown hook")
	}
	res, err := Status(ctx, s.opts())
	if err != nil || len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "unknown hook") {
		t.Fatalf("status: %+v %v", res, err)
	}
}
