package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"ctx/core"

	"github.com/go-git/go-git/v5/plumbing"
)

var (
	// ErrMachineCollision is returned when the remote's ref for this
	// machine holds commits this machine never wrote: another store uses
	// the same machine id (a copied $CTX_HOME), or someone rewrote it.
	ErrMachineCollision = errors.New("the remote's ref for this machine holds commits this machine never wrote")
	// ErrRewritten is returned when a machine's history on the remote no
	// longer contains the commit last merged from it (a forced push).
	ErrRewritten = errors.New("the remote history of a machine was rewritten since it was last merged")
	// ErrNothingShared is returned by Push when the [sync] include setting
	// names no workspace and no provider.
	ErrNothingShared = errors.New("nothing is shared: set [sync] include workspaces or providers in config.toml")
)

// Syncer pushes and pulls one store.
type Syncer struct {
	Home      string
	Machine   string
	Transport *Transport
	Now       func() time.Time
}

// PushReport says what a push did.
type PushReport struct {
	Remote     string
	Machine    string
	Commit     plumbing.Hash
	Pushed     bool // false: the remote already had this commit
	Exported   *ExportReport
	Encryption string
	// Export is the time spent writing the mirror's commit, Transport the
	// time in git's transport (ls-remote, push, and a fetch of this
	// machine's own ref when the mirror lacks it).
	Export, Transport time.Duration
}

// Push exports the view of src to the remote's mirror and pushes this
// machine's ref.
func (s *Syncer) Push(ctx context.Context, r Remote, src Source, include func(core.TreeEntry) bool) (*PushReport, error) {
	if include == nil {
		return nil, ErrNothingShared
	}
	m, unlock, err := s.mirror(ctx, r)
	if err != nil {
		return nil, err
	}
	defer unlock()
	key, err := s.key(r)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	remote, err := s.Transport.MachineRefs(ctx, r.URL)
	if err != nil {
		return nil, err
	}
	if err := s.checkOwn(ctx, m, r, remote[s.Machine]); err != nil {
		return nil, err
	}
	t1 := time.Now()
	rep, err := m.Export(src, ExportOptions{Machine: s.Machine, Include: include, Key: key, Now: s.now()})
	if err != nil {
		return nil, err
	}
	t2 := time.Now()
	out := &PushReport{Remote: r.Name, Machine: s.Machine, Commit: rep.Commit, Exported: rep, Encryption: encryptionOf(key),
		Export: t2.Sub(t1), Transport: t1.Sub(t0)}
	if rep.Commit == remote[s.Machine] {
		return out, nil
	}
	if err := s.Transport.push(ctx, m, r.URL, s.Machine); err != nil {
		return nil, err
	}
	out.Pushed, out.Transport = true, out.Transport+time.Since(t2)
	return out, nil
}

// checkOwn makes sure the remote's ref for this machine is one this mirror
// wrote (or an ancestor of it); a mirror without that ref resumes from it.
func (s *Syncer) checkOwn(ctx context.Context, m *Mirror, r Remote, theirs plumbing.Hash) error {
	if theirs.IsZero() {
		return nil
	}
	mine, err := m.Ref(MachineRef(s.Machine))
	if err != nil {
		return err
	}
	if mine.IsZero() {
		return s.Transport.fetchOwn(ctx, m, r.URL, s.Machine)
	}
	ok, err := m.IsAncestor(theirs, mine)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w (machine %s, remote %s holds %s)", ErrMachineCollision, s.Machine, r.Name, theirs.String()[:12])
	}
	return nil
}

func (s *Syncer) key(r Remote) (*Key, error) {
	if !r.Encrypt {
		return nil, nil
	}
	return LoadKey(s.Home)
}

func (s *Syncer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Incoming is one machine's commit to merge into the local store.
type Incoming struct {
	Machine   string
	Commit    plumbing.Hash
	Snapshot  *Snapshot
	Tree      *core.Tree
	Forgotten core.ForgottenSet // the machine's tombstones
}

// Merger merges incoming commits into the local store as one generation;
// it reads every object through the snapshots (which check them) and
// writes nothing when any read fails.
type Merger func(ctx context.Context, in []Incoming) error

// PullReport says what a pull did.
type PullReport struct {
	Remote   string
	Machines []MachineState // every other machine on the remote
	Merged   []Incoming
}

// Pull fetches every machine ref of the remote and hands the commits not
// merged yet to merge. Any machine whose commit cannot be read (another
// format, no key, a rewritten history, a forged object) fails the whole
// pull and nothing is merged.
func (s *Syncer) Pull(ctx context.Context, r Remote, merge Merger) (*PullReport, error) {
	m, unlock, err := s.mirror(ctx, r)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := s.Transport.fetch(ctx, m, r.URL); err != nil {
		return nil, err
	}
	st, err := loadState(s.Home)
	if err != nil {
		return nil, err
	}
	key, err := s.key(r)
	if errors.Is(err, ErrNoKey) {
		key, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	rep := &PullReport{Remote: r.Name}
	fetched, err := m.fetched()
	if err != nil {
		return nil, err
	}
	merged := st.Merged[r.Name]
	for _, machine := range sortedKeys(fetched) {
		commit := fetched[machine]
		if machine == s.Machine {
			continue
		}
		ms := MachineState{Machine: machine, Remote: commit.String(), Merged: merged[machine]}
		rep.Machines = append(rep.Machines, ms)
		if ms.Merged == ms.Remote {
			continue
		}
		in, err := s.incoming(m, machine, commit, merged[machine], key)
		if err != nil {
			return nil, err
		}
		rep.Merged = append(rep.Merged, *in)
	}
	if len(rep.Merged) == 0 {
		return rep, nil
	}
	if err := merge(ctx, rep.Merged); err != nil {
		return nil, err
	}
	if st.Merged[r.Name] == nil {
		st.Merged[r.Name] = map[string]string{}
	}
	for _, in := range rep.Merged {
		st.Merged[r.Name][in.Machine] = in.Commit.String()
	}
	return rep, st.save(s.Home)
}

func (s *Syncer) incoming(m *Mirror, machine string, commit plumbing.Hash, last string, key *Key) (*Incoming, error) {
	fail := func(err error) (*Incoming, error) { return nil, &RefError{Machine: machine, Commit: commit, Err: err} }
	if last != "" {
		ok, err := m.IsAncestor(plumbing.NewHash(last), commit)
		if err != nil {
			return fail(err)
		}
		if !ok {
			return fail(fmt.Errorf("%w (last merged %s)", ErrRewritten, last[:12]))
		}
	}
	snap, err := m.Snapshot(commit, key)
	if err != nil {
		return fail(err)
	}
	if snap.Header.Machine != machine {
		return fail(fmt.Errorf("%w: the commit is of machine %q", ErrNotCtxStore, snap.Header.Machine))
	}
	tree, err := snap.Tree()
	if err != nil {
		return fail(err)
	}
	forgotten, err := snap.Forgotten()
	if err != nil {
		return fail(err)
	}
	return &Incoming{Machine: machine, Commit: commit, Snapshot: snap, Tree: tree, Forgotten: forgotten}, nil
}

// fetched lists the machine refs of the mirror's last fetch.
func (m *Mirror) fetched() (map[string]plumbing.Hash, error) {
	it, err := m.st.IterReferences()
	if err != nil {
		return nil, err
	}
	var lines []byte
	_ = it.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.HashReference {
			lines = append(lines, []byte(r.Hash().String()+"\t"+r.Name().String()+"\n")...)
		}
		return nil
	})
	return parseRefs(lines, fetchedPrefix), nil
}

func sortedKeys(m map[string]plumbing.Hash) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// lock takes the sync lock of the store, waiting while another sync holds it.
// mirror takes the sync lock and opens the remote's mirror; unlock releases
// the lock.
func (s *Syncer) mirror(ctx context.Context, r Remote) (m *Mirror, unlock func(), err error) {
	if unlock, err = s.lock(ctx); err != nil {
		return nil, nil, err
	}
	if m, err = OpenMirror(MirrorDir(s.Home, r.Name)); err != nil {
		unlock()
		return nil, nil, err
	}
	return m, unlock, nil
}

func (s *Syncer) lock(ctx context.Context) (func(), error) {
	if err := os.MkdirAll(SyncDir(s.Home), 0o700); err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(SyncDir(s.Home), "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("gitstore: lock: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("gitstore: lock: %w", err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
