package gitstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"ctx/objects"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Mirror is the local bare git repository of one remote: the machine
// commits this store wrote and those the last fetch brought.
type Mirror struct {
	Dir  string
	repo *git.Repository
	st   storer.Storer
}

// OpenMirror opens the mirror in dir, creating an empty bare repository
// (0700) when there is none.
func OpenMirror(dir string) (*Mirror, error) {
	repo, err := git.PlainOpen(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return nil, fmt.Errorf("gitstore: mirror: %w", err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("gitstore: mirror: %w", err)
		}
		repo, err = git.PlainInit(dir, true)
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: mirror %s: %w", dir, err)
	}
	return &Mirror{Dir: dir, repo: repo, st: repo.Storer}, nil
}

// Ref returns the commit a ref of the mirror names, or the zero hash.
func (m *Mirror) Ref(name plumbing.ReferenceName) (plumbing.Hash, error) {
	r, err := m.st.Reference(name)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("gitstore: ref %s: %w", name, err)
	}
	return r.Hash(), nil
}

// Has reports whether the mirror holds the object.
func (m *Mirror) Has(h plumbing.Hash) bool {
	return m.st.HasEncodedObject(h) == nil
}

// IsAncestor reports whether commit a is b or one of b's ancestors.
func (m *Mirror) IsAncestor(a, b plumbing.Hash) (bool, error) {
	if a == b {
		return true, nil
	}
	ca, err := object.GetCommit(m.st, a)
	if err != nil {
		return false, nil
	}
	cb, err := object.GetCommit(m.st, b)
	if err != nil {
		return false, err
	}
	return ca.IsAncestor(cb)
}

// blob reads a blob of the mirror.
func (m *Mirror) blob(h plumbing.Hash) ([]byte, error) {
	o, err := m.st.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: blob %s: %w", h, err)
	}
	r, err := o.Reader()
	if err != nil {
		return nil, fmt.Errorf("gitstore: blob %s: %w", h, err)
	}
	defer r.Close()
	return io.ReadAll(r)
}

// commitTree is what a machine commit's tree names: its two plain files and
// the blob of every object, by blake3 id (the blake3 → git id map).
type commitTree struct {
	header, manifest plumbing.Hash
	objects          map[objects.ID]plumbing.Hash
}

// readCommitTree walks a machine commit's tree. Entries that are not
// objects/<ab>/<62 hex> blobs make it ErrNotCtxStore.
func (m *Mirror) readCommitTree(commit plumbing.Hash) (*object.Commit, *commitTree, error) {
	c, err := object.GetCommit(m.st, commit)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrNotCtxStore, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrNotCtxStore, err)
	}
	ct := &commitTree{objects: map[objects.ID]plumbing.Hash{}}
	for _, e := range t.Entries {
		switch {
		case e.Name == headerPath && e.Mode == filemode.Regular:
			ct.header = e.Hash
		case e.Name == manifestPath && e.Mode == filemode.Regular:
			ct.manifest = e.Hash
		case e.Name == objectsDir && e.Mode == filemode.Dir:
			if err := m.readFanout(e.Hash, ct.objects); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, fmt.Errorf("%w: unexpected entry %q", ErrNotCtxStore, e.Name)
		}
	}
	if ct.header.IsZero() || ct.manifest.IsZero() {
		return nil, nil, fmt.Errorf("%w: no %s or %s", ErrNotCtxStore, headerPath, manifestPath)
	}
	return c, ct, nil
}

func (m *Mirror) readFanout(h plumbing.Hash, into map[objects.ID]plumbing.Hash) error {
	t, err := object.GetTree(m.st, h)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotCtxStore, err)
	}
	for _, d := range t.Entries {
		sub, err := object.GetTree(m.st, d.Hash)
		if err != nil || d.Mode != filemode.Dir || len(d.Name) != 2 {
			return fmt.Errorf("%w: bad object directory %q", ErrNotCtxStore, d.Name)
		}
		for _, e := range sub.Entries {
			id, err := objects.ParseID(d.Name + e.Name)
			if err != nil || e.Mode != filemode.Regular {
				return fmt.Errorf("%w: bad object entry %q", ErrNotCtxStore, d.Name+e.Name)
			}
			into[id] = e.Hash
		}
	}
	return nil
}
