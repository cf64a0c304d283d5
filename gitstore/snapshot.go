package gitstore

import (
	"encoding/json"
	"fmt"

	"ctx/core"
	"ctx/objects"

	"github.com/go-git/go-git/v5/plumbing"
)

// Snapshot is one machine commit of a mirror, read through checks: every
// object it returns was opened with the key (encrypted remotes) and hashes
// to its blake3 name, or the read fails with a *objects.CorruptError.
type Snapshot struct {
	Commit   plumbing.Hash
	Header   *Header
	Manifest *Manifest
	tree     *commitTree
	m        *Mirror
	key      *Key
}

// Snapshot reads the commit's header and manifest. A commit that is not a
// ctx sync commit is ErrNotCtxStore, a later format ErrFutureFormat, an
// encrypted one without the key ErrNoKey.
func (m *Mirror) Snapshot(commit plumbing.Hash, key *Key) (*Snapshot, error) {
	_, ct, err := m.readCommitTree(commit)
	if err != nil {
		return nil, err
	}
	hb, err := m.blob(ct.header)
	if err != nil {
		return nil, err
	}
	h, err := decodeHeader(hb)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Commit: commit, Header: h, tree: ct, m: m}
	if h.Encryption == EncryptionAge {
		if key == nil {
			return nil, ErrNoKey
		}
		s.key = key
	}
	mb, err := s.open(ct.manifest)
	if err != nil {
		return nil, err
	}
	var man Manifest
	if err := json.Unmarshal(mb, &man); err != nil || man.Machine != h.Machine {
		return nil, fmt.Errorf("%w: unreadable manifest", ErrNotCtxStore)
	}
	s.Manifest = &man
	return s, nil
}

func (s *Snapshot) open(h plumbing.Hash) ([]byte, error) {
	b, err := s.m.blob(h)
	if err != nil || s.key == nil {
		return b, err
	}
	return s.key.open(b)
}

// Get returns a ctx object of the commit, checked against its name.
func (s *Snapshot) Get(id objects.ID) ([]byte, error) {
	h, ok := s.tree.objects[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s (not in the commit of machine %s)", objects.ErrNotFound, id, s.Header.Machine)
	}
	raw, err := s.open(h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: object %s of machine %s: %w", id.Short(), s.Header.Machine, err)
	}
	return objects.Decode(id, raw, fmt.Sprintf("machine %s, git blob %s", s.Header.Machine, h))
}

// Tree returns the session tree of the commit.
func (s *Snapshot) Tree() (*core.Tree, error) { return core.LoadTree(s, s.Manifest.Tree) }

// Forgotten returns the tombstones the commit shares (empty when none).
func (s *Snapshot) Forgotten() (core.ForgottenSet, error) {
	return core.LoadForgotten(s, s.Manifest.Forgotten)
}

// Objects is the number of ctx objects the commit names.
func (s *Snapshot) Objects() int { return len(s.tree.objects) }
