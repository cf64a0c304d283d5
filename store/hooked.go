package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"ctx/objects"
)

// HookedRepos is the file that lists the repositories where ctx hooks are
// installed: history that lives inside a repository (Aider's chat log) is
// discovered there without a configured root.
func (l Layout) HookedRepos() string { return filepath.Join(l.home, "hooked-repos.json") }

// hookedFile is the JSON of HookedRepos.
type hookedFile struct {
	Kind  string   `json:"kind"` // always "hooked_repos"
	Repos []string `json:"repos"`
}

const kindHooked = "hooked_repos"

// ReadHookedRepos returns the recorded repositories, sorted; none when the
// file does not exist. A damaged file is an error.
func (l Layout) ReadHookedRepos() ([]string, error) {
	b, err := os.ReadFile(l.HookedRepos())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: hooked repositories: %w", err)
	}
	var h hookedFile
	if err := json.Unmarshal(b, &h); err != nil || h.Kind != kindHooked {
		return nil, fmt.Errorf("store: hooked repositories: %s is damaged", filepath.Base(l.HookedRepos()))
	}
	return h.Repos, nil
}

// RecordHookedRepo adds repo (an absolute path) to the list, or removes it
// when on is false. It creates the store directory when needed; the file is
// replaced whole (written beside it, then renamed) under a lock, so
// concurrent installs never lose each other's entry.
func (l Layout) RecordHookedRepo(repo string, on bool) error {
	if err := os.MkdirAll(l.home, 0o700); err != nil {
		return fmt.Errorf("store: hooked repositories: %w", err)
	}
	lock, err := os.OpenFile(l.HookedRepos()+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("store: hooked repositories: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("store: hooked repositories: %w", err)
	}
	repos, err := l.ReadHookedRepos()
	if err != nil && on {
		return err // never drop the entries of a file that cannot be read
	}
	i, found := slices.BinarySearch(repos, repo)
	switch {
	case on && !found:
		repos = slices.Insert(repos, i, repo)
	case !on && found:
		repos = slices.Delete(repos, i, i+1)
	default:
		return nil
	}
	return writeReplace(l.HookedRepos(), hookedFile{Kind: kindHooked, Repos: repos})
}

// writeReplace writes v as JSON to a private temporary file beside p and
// renames it over p.
func writeReplace(p string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return objects.ReplaceFile(p, append(data, '\n'))
}
