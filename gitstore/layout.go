package gitstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"ctx/objects"

	"github.com/go-git/go-git/v5/plumbing"
)

// Format is the version of the commit layout this package writes and reads.
// A commit of a later format is refused (ErrFutureFormat), never guessed at.
const Format = 1

// The paths of a machine commit's tree:
//
//	ctx-sync               the Header, plain JSON
//	manifest               the Manifest (age-encrypted on an encrypted remote)
//	objects/<ab>/<cd…>     one blob per ctx object, named by its blake3 id
const (
	headerPath   = "ctx-sync"
	manifestPath = "manifest"
	objectsDir   = "objects"
)

// RefPrefix is the namespace of the machine refs on a remote.
const RefPrefix = "refs/ctx/machines/"

// fetchedPrefix is where a mirror keeps the machine refs of its last fetch.
const fetchedPrefix = "refs/fetched/machines/"

// MachineRef is the ref a machine publishes under.
func MachineRef(machine string) plumbing.ReferenceName {
	return plumbing.ReferenceName(RefPrefix + machine + "/active")
}

func fetchedRef(machine string) plumbing.ReferenceName {
	return plumbing.ReferenceName(fetchedPrefix + machine + "/active")
}

// Encryption names of Header.Encryption.
const (
	EncryptionNone = "none"
	EncryptionAge  = "age"
)

// Header is the plain part of a machine commit: what a reader needs before
// it can read anything else.
type Header struct {
	Kind       string `json:"kind"` // always "ctx-sync"
	Format     int    `json:"format"`
	Machine    string `json:"machine"`
	Encryption string `json:"encryption"`
}

// Manifest says what a machine commit holds.
type Manifest struct {
	Machine      string     `json:"machine"`
	Generation   uint64     `json:"generation"`    // the local generation it was made from
	GenerationID objects.ID `json:"generation_id"` // (not pushed: it names local index shards)
	Tree         objects.ID `json:"tree"`          // the session tree of the view
	// Forgotten names the sessions this machine forgot (core.Forgotten)
	// that the view may speak of: tombstones that other machines apply on
	// their next pull. Absent when there are none (and from older ctx).
	Forgotten *objects.ID `json:"forgotten,omitempty"`
	Sessions  int         `json:"sessions"`
	Events    int         `json:"events"`
	Objects   int         `json:"objects"`
	Created   time.Time   `json:"created"`
}

var (
	// ErrFutureFormat is returned for a commit written by a later ctx.
	ErrFutureFormat = errors.New("the remote holds a ctx sync format newer than this ctx reads: upgrade ctx")
	// ErrNotCtxStore is returned for a machine ref whose commit is not a
	// ctx sync commit.
	ErrNotCtxStore = errors.New("the remote ref does not hold a ctx store")
)

// RefError names the machine ref and commit an error is about.
type RefError struct {
	Machine string
	Commit  plumbing.Hash
	Err     error
}

func (e *RefError) Error() string {
	return fmt.Sprintf("machine %s (commit %s): %v", e.Machine, e.Commit.String()[:12], e.Err)
}

func (e *RefError) Unwrap() error { return e.Err }

func decodeHeader(b []byte) (*Header, error) {
	var h Header
	if err := json.Unmarshal(b, &h); err != nil || h.Kind != headerPath || h.Format < 1 {
		return nil, ErrNotCtxStore
	}
	if h.Format > Format {
		return nil, fmt.Errorf("%w (format %d, this ctx reads %d)", ErrFutureFormat, h.Format, Format)
	}
	if h.Encryption != EncryptionNone && h.Encryption != EncryptionAge {
		return nil, fmt.Errorf("%w: unknown encryption %q", ErrFutureFormat, h.Encryption)
	}
	return &h, nil
}

// objectPath is the tree path of an object: objects/ab/cdef….
func objectPath(id objects.ID) (dir, name string) {
	h := id.String()
	return h[:2], h[2:]
}
