package gitstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
)

// Remote is a git remote this store syncs with.
type Remote struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Encrypt bool   `json:"encrypt"`
}

var remoteRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`) })

var (
	// ErrInvalidRemote is returned for a remote name that is not 1-64 of
	// A-Z a-z 0-9 _ -, or an empty URL.
	ErrInvalidRemote = errors.New("invalid remote")
	// ErrRemoteExists is returned by AddRemote for a name already taken.
	ErrRemoteExists = errors.New("a remote of that name exists")
	// ErrNoRemote is returned for a remote name that is not configured,
	// or when none is.
	ErrNoRemote = errors.New("no such sync remote")
)

// SyncDir is $CTX_HOME/sync: remotes, mirrors, key and merge state.
func SyncDir(home string) string { return filepath.Join(home, "sync") }

func remotesPath(home string) string { return filepath.Join(SyncDir(home), "remotes.json") }

// MirrorDir is the mirror of a remote.
func MirrorDir(home, remote string) string {
	return filepath.Join(SyncDir(home), "remotes", remote+".git")
}

// Remotes returns the configured remotes, sorted by name.
func Remotes(home string) ([]Remote, error) {
	b, err := os.ReadFile(remotesPath(home))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: remotes: %w", err)
	}
	var rs []Remote
	if err := json.Unmarshal(b, &rs); err != nil {
		return nil, fmt.Errorf("gitstore: remotes %s: %w", remotesPath(home), err)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	return rs, nil
}

// FindRemote returns the remote of that name; "" names the only one.
func FindRemote(home, name string) (Remote, error) {
	rs, err := Remotes(home)
	if err != nil {
		return Remote{}, err
	}
	for _, r := range rs {
		if r.Name == name || name == "" && len(rs) == 1 {
			return r, nil
		}
	}
	if name == "" && len(rs) > 1 {
		return Remote{}, fmt.Errorf("%w: several remotes are configured, name one", ErrNoRemote)
	}
	if name == "" {
		return Remote{}, fmt.Errorf("%w: add one with ctx sync remote add NAME URL", ErrNoRemote)
	}
	return Remote{}, fmt.Errorf("%w: %q", ErrNoRemote, name)
}

// AddRemote records a remote.
func AddRemote(home string, r Remote) error {
	if !remoteRE().MatchString(r.Name) {
		return fmt.Errorf("%w: name %q (1-64 of A-Z a-z 0-9 _ -)", ErrInvalidRemote, r.Name)
	}
	if r.URL == "" {
		return fmt.Errorf("%w: empty URL", ErrInvalidRemote)
	}
	rs, err := Remotes(home)
	if err != nil {
		return err
	}
	for _, o := range rs {
		if o.Name == r.Name {
			return fmt.Errorf("%w: %q", ErrRemoteExists, r.Name)
		}
	}
	b, _ := json.MarshalIndent(append(rs, r), "", "  ")
	return writeFileAtomic(remotesPath(home), append(b, '\n'))
}

// mergeState records, per remote and machine, the commit last merged into
// the local store: the next pull starts from it, and a remote history that
// no longer contains it was rewritten.
type mergeState struct {
	Merged map[string]map[string]string `json:"merged"` // remote → machine → commit
}

func statePath(home string) string { return filepath.Join(SyncDir(home), "state.json") }

func loadState(home string) (*mergeState, error) {
	st := &mergeState{Merged: map[string]map[string]string{}}
	b, err := os.ReadFile(statePath(home))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: state: %w", err)
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("gitstore: state %s: %w", statePath(home), err)
	}
	if st.Merged == nil {
		st.Merged = map[string]map[string]string{}
	}
	return st, nil
}

func (st *mergeState) save(home string) error {
	b, _ := json.MarshalIndent(st, "", "  ")
	return writeFileAtomic(statePath(home), append(b, '\n'))
}
