package hooks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"ctx/store"
)

// Names are the hooks ctx installs.
var Names = []string{"post-commit", "post-rewrite", "post-merge"}

// ChainSuffix is appended to a hook that was there before ctx's.
const ChainSuffix = ".ctx-chained"

// marker identifies a hook script written by ctx.
const marker = "# ctx-hook v1"

// ErrChainTaken is returned when a hook would be chained but a chained hook
// already exists under that name.
var ErrChainTaken = errors.New("a chained hook already exists: move it away or remove it first")

// Options say where to install and what the scripts call.
type Options struct {
	Repo   string // a directory inside the repository
	Binary string // absolute path of the ctx binary; "ctx" on PATH is the fallback
	Home   string // $CTX_HOME the hooks run with
}

// HookState is what one hook file is.
type HookState struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	State   string `json:"state"` // installed, missing, foreign
	Chained bool   `json:"chained"`
}

// Result is what install, remove and status report.
type Result struct {
	Repo     string      `json:"repo"`
	HooksDir string      `json:"hooks_dir"`
	Hooks    []HookState `json:"hooks"`
	Manager  *Manager    `json:"manager,omitempty"`
	Changed  []string    `json:"changed"`
	Problems []string    `json:"problems"`
}

// Hook states.
const (
	StateInstalled = "installed"
	StateMissing   = "missing"
	StateForeign   = "foreign" // a hook ctx did not write
)

// Install writes ctx's hooks, keeping any existing hook as <hook>.ctx-chained.
// It is idempotent. When a hook manager owns the hooks, nothing is written
// and the result names the line to add instead.
func Install(ctx context.Context, opts Options) (*Result, error) {
	root, dir, err := Dir(ctx, opts.Repo)
	if err != nil {
		return nil, err
	}
	res := &Result{Repo: root, HooksDir: dir, Changed: []string{}, Problems: []string{}}
	if m := DetectManager(root, dir); m != nil {
		res.Manager = m
		return res, status(res)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("hooks directory: %w", err)
	}
	for _, name := range Names {
		changed, err := installOne(dir, name, script(name, opts))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if changed {
			res.Changed = append(res.Changed, name)
		}
	}
	if err := record(opts.Home, root, true); err != nil {
		return nil, err
	}
	return res, status(res)
}

// record adds the repository to (or removes it from) the store's list of
// hooked repositories, where imports find history kept inside repositories
// (Aider's chat log). Without a store home nothing is recorded.
func record(home, root string, on bool) error {
	if home == "" {
		return nil
	}
	return store.At(home).RecordHookedRepo(root, on)
}

func installOne(dir, name, body string) (bool, error) {
	path := filepath.Join(dir, name)
	cur, err := os.ReadFile(path)
	switch {
	case err == nil && isOurs(cur):
		if string(cur) == body {
			return false, nil
		}
	case err == nil || isSymlink(path):
		chained := path + ChainSuffix
		if _, err := os.Lstat(chained); err == nil {
			return false, ErrChainTaken
		}
		if err := os.Rename(path, chained); err != nil {
			return false, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	return true, writeExec(path, body)
}

// Remove deletes ctx's hooks and puts chained hooks back under their names.
// A hook ctx did not write is left alone and reported.
func Remove(ctx context.Context, opts Options) (*Result, error) {
	root, dir, err := Dir(ctx, opts.Repo)
	if err != nil {
		return nil, err
	}
	res := &Result{Repo: root, HooksDir: dir, Changed: []string{}, Problems: []string{}}
	for _, name := range Names {
		path := filepath.Join(dir, name)
		cur, err := os.ReadFile(path)
		if err == nil && !isOurs(cur) {
			res.Problems = append(res.Problems, name+": not written by ctx; left as is")
			continue
		}
		if err == nil {
			if err := os.Remove(path); err != nil {
				return nil, err
			}
			res.Changed = append(res.Changed, name)
		}
		if _, err := os.Lstat(path + ChainSuffix); err == nil {
			if _, err := os.Lstat(path); err == nil {
				res.Problems = append(res.Problems, name+ChainSuffix+": "+name+" exists; not restored")
				continue
			}
			if err := os.Rename(path+ChainSuffix, path); err != nil {
				return nil, err
			}
		}
	}
	if err := record(opts.Home, root, false); err != nil {
		return nil, err
	}
	return res, status(res)
}

// Status reports the hooks of the repository.
func Status(ctx context.Context, opts Options) (*Result, error) {
	root, dir, err := Dir(ctx, opts.Repo)
	if err != nil {
		return nil, err
	}
	res := &Result{Repo: root, HooksDir: dir, Changed: []string{}, Problems: []string{},
		Manager: DetectManager(root, dir)}
	for _, l := range LogTail(opts.Home, 200) {
		if strings.Contains(l, " "+root+": ") {
			res.Problems = append(res.Problems, l)
		}
	}
	if len(res.Problems) > 5 {
		res.Problems = res.Problems[len(res.Problems)-5:]
	}
	return res, status(res)
}

func status(res *Result) error {
	res.Hooks = nil
	for _, name := range Names {
		path := filepath.Join(res.HooksDir, name)
		h := HookState{Name: name, Path: path, State: StateMissing}
		if cur, err := os.ReadFile(path); err == nil {
			h.State = StateForeign
			if isOurs(cur) {
				h.State = StateInstalled
			}
		}
		_, err := os.Lstat(path + ChainSuffix)
		h.Chained = err == nil
		res.Hooks = append(res.Hooks, h)
	}
	return nil
}

func isOurs(b []byte) bool { return strings.Contains(string(b), "\n"+marker+"\n") }

func isSymlink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

func writeExec(path, body string) error {
	tmp := path + ".ctx-tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o755); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
