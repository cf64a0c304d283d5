package hooks

import (
	"os"
	"path/filepath"
	"strings"
)

// Manager is a hook manager that owns the repository's hooks; ctx gives the
// lines to add to its configuration instead of writing hook files.
type Manager struct {
	Name         string `json:"name"` // husky, lefthook, pre-commit
	Config       string `json:"config"`
	Instructions string `json:"instructions"`
}

// DetectManager finds Husky (.husky/ or a hooks path inside it), Lefthook
// (lefthook.yml and its variants) and pre-commit (.pre-commit-config.yaml).
func DetectManager(root, hooksDir string) *Manager {
	if isDir(filepath.Join(root, ".husky")) || strings.Contains(filepath.ToSlash(hooksDir), "/.husky") {
		return &Manager{Name: "husky", Config: ".husky/", Instructions: huskyLines}
	}
	for _, f := range []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"} {
		if isFile(filepath.Join(root, f)) {
			return &Manager{Name: "lefthook", Config: f, Instructions: lefthookLines}
		}
	}
	if isFile(filepath.Join(root, ".pre-commit-config.yaml")) {
		return &Manager{Name: "pre-commit", Config: ".pre-commit-config.yaml", Instructions: preCommitLines}
	}
	return nil
}

const huskyLines = `Add this line to .husky/post-commit:
    ctx hooks run post-commit
this line to .husky/post-rewrite:
    ctx hooks run post-rewrite "$@"
and this line to .husky/post-merge:
    ctx hooks run post-merge "$@"`

const lefthookLines = `Add to lefthook.yml:
    post-commit:
      commands:
        ctx: {run: ctx hooks run post-commit}
    post-rewrite:
      commands:
        ctx: {run: ctx hooks run post-rewrite {0}, use_stdin: true}
    post-merge:
      commands:
        ctx: {run: ctx hooks run post-merge {0}}`

const preCommitLines = `Add to .pre-commit-config.yaml (then: pre-commit install -t post-commit -t post-rewrite -t post-merge):
    - repo: local
      hooks:
        - {id: ctx, name: ctx, entry: ctx hooks run post-commit, language: system,
           always_run: true, pass_filenames: false, stages: [post-commit]}
        - {id: ctx-pulled, name: ctx, entry: ctx hooks run post-merge, language: system,
           always_run: true, pass_filenames: false, stages: [post-merge]}
(post-rewrite through pre-commit gets no old/new list: amended and rebased commits are linked afresh)`

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
