package gitstore

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ExportOptions say what a machine shares and how.
type ExportOptions struct {
	Machine string
	// Include selects the sessions of the view among those imported on this
	// machine (sessions pulled from others are theirs to share); nil shares
	// nothing.
	Include func(core.TreeEntry) bool
	// Key, when set, encrypts every blob but the header.
	Key *Key
	Now time.Time
}

// ExportReport says what an export wrote.
type ExportReport struct {
	Commit     plumbing.Hash
	Parent     plumbing.Hash
	Changed    bool // false: the view is the one last exported
	Manifest   Manifest
	NewObjects int
	NewBytes   int64 // bytes of the new blobs, as stored in git
}

// Source is the local store an export reads: its objects and the
// generation to share.
type Source struct {
	Objects      *objects.Store
	Generation   *refs.Generation
	GenerationID objects.ID
}

// Export writes the view of src's generation as the next commit of the
// machine's ref in the mirror (its parent the commit exported before), and
// moves that ref by compare-and-swap. An unchanged view writes nothing.
func (m *Mirror) Export(src Source, opts ExportOptions) (*ExportReport, error) {
	if !ValidMachine(opts.Machine) {
		return nil, fmt.Errorf("%w: %q", ErrInvalidMachine, opts.Machine)
	}
	view, err := buildView(src, opts.Include)
	if err != nil {
		return nil, err
	}
	ref := MachineRef(opts.Machine)
	parent, err := m.Ref(ref)
	if err != nil {
		return nil, err
	}
	prev, err := m.previous(parent, opts.Key)
	if err != nil {
		return nil, err
	}
	rep := &ExportReport{Parent: parent}
	enc := encryptionOf(opts.Key)
	if prev != nil && prev.manifest.Tree == view.id && sameID(prev.manifest.Forgotten, view.forgotten) &&
		prev.header.Encryption == enc {
		rep.Commit, rep.Manifest = parent, *prev.manifest
		return rep, nil
	}
	w := &exportWriter{m: m, src: src.Objects, key: opts.Key, p: newPacker(m), prev: prev}
	set, err := w.objectSet(view)
	if err != nil {
		return nil, err
	}
	man := Manifest{Machine: opts.Machine, Generation: src.Generation.Number, GenerationID: src.GenerationID,
		Tree: view.id, Forgotten: view.forgotten, Sessions: len(view.tree.Sessions), Events: view.events, Objects: len(set), Created: opts.Now.UTC()}
	commit, err := w.commit(set, Header{Kind: headerPath, Format: Format, Machine: opts.Machine, Encryption: enc}, man, parent)
	if err != nil {
		return nil, err
	}
	if err := w.p.flush(); err != nil {
		return nil, err
	}
	if err := w.p.sync(); err != nil {
		return nil, err
	}
	var old *plumbing.Reference
	if !parent.IsZero() {
		old = plumbing.NewHashReference(ref, parent)
	}
	if err := m.st.CheckAndSetReference(plumbing.NewHashReference(ref, commit), old); err != nil {
		return nil, fmt.Errorf("gitstore: publish %s: %w", ref, err)
	}
	rep.Commit, rep.Changed, rep.Manifest = commit, true, man
	rep.NewObjects, rep.NewBytes = w.newObjects, w.newBytes
	return rep, nil
}

func encryptionOf(k *Key) string {
	if k != nil {
		return EncryptionAge
	}
	return EncryptionNone
}

// view is the session tree a machine shares, encoded as a ctx object, and
// the tombstones it shares beside it.
type view struct {
	tree   *core.Tree
	id     objects.ID
	raw    []byte // its object file
	events int

	forgotten    *objects.ID // nil when nothing forgotten is shared
	forgottenRaw []byte
}

func buildView(src Source, include func(core.TreeEntry) bool) (*view, error) {
	t, err := core.LoadTree(src.Objects, src.Generation.Tree)
	if err != nil {
		return nil, err
	}
	var kept []core.TreeEntry
	events := 0
	for _, e := range t.Sessions {
		if e.Machine == "" && include != nil && include(e) {
			kept = append(kept, e)
			events += e.Events
		}
	}
	vt := core.NewTree(kept)
	data, err := vt.EncodeWhole()
	if err != nil {
		return nil, err
	}
	id, raw := objects.Encode(data)
	v := &view{tree: vt, id: id, raw: raw, events: events}
	if err := v.shareForgotten(src, include); err != nil {
		return nil, err
	}
	return v, nil
}

// shareForgotten adds the tombstones of the view: the entries of the local
// forgotten set (forgets and their undos) of sessions another machine
// shared, or of this machine's sessions the include rules share. What
// only this machine needs is left out: the source file's path and the
// local generation numbers.
func (v *view) shareForgotten(src Source, include func(core.TreeEntry) bool) error {
	local, err := core.LoadForgotten(src.Objects, src.Generation.Forgotten)
	if err != nil {
		return err
	}
	shared := core.ForgottenSet{}
	for id, e := range local {
		if e.Machine == "" && (include == nil || !include(core.TreeEntry{Provider: e.Provider, Workspace: e.Workspace})) {
			continue
		}
		e.Source.Path, e.Generation, e.Purged = "", 0, 0
		shared[id] = e
	}
	var c capture
	fid, err := shared.Put(&c)
	if err != nil || fid == nil {
		return err
	}
	id, raw := objects.Encode(c.data)
	v.forgotten, v.forgottenRaw = &id, raw
	return nil
}

func sameID(a, b *objects.ID) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// capture is a Putter that keeps the bytes it is given.
type capture struct{ data []byte }

func (c *capture) Put(data []byte) (objects.ID, error) {
	c.data = data
	return objects.Hash(data), nil
}

// previous is the commit exported before, read back from the mirror.
type previous struct {
	tree     *commitTree
	header   *Header
	manifest *Manifest
	view     *core.Tree
	snap     *Snapshot
}

func (m *Mirror) previous(commit plumbing.Hash, key *Key) (*previous, error) {
	if commit.IsZero() {
		return nil, nil
	}
	s, err := m.Snapshot(commit, key)
	if err != nil {
		return nil, err
	}
	if s.Header.Encryption != encryptionOf(key) {
		// Switching encryption on or off rewrites every blob: start the
		// object set over (the commit keeps its parent).
		return &previous{header: s.Header, manifest: s.Manifest, tree: &commitTree{objects: map[objects.ID]plumbing.Hash{}}}, nil
	}
	vt, err := s.Tree()
	if err != nil {
		return nil, err
	}
	return &previous{tree: s.tree, header: s.Header, manifest: s.Manifest, view: vt, snap: s}, nil
}

type exportWriter struct {
	m          *Mirror
	src        *objects.Store
	key        *Key
	p          *packer
	prev       *previous
	newObjects int
	newBytes   int64
}

// blob adds one ctx object's file as a blob (sealed for an encrypted
// remote) unless the previous commit holds it already.
func (w *exportWriter) blob(id objects.ID, raw []byte) (plumbing.Hash, error) {
	if w.prev != nil {
		if h, ok := w.prev.tree.objects[id]; ok {
			return h, nil
		}
	}
	if raw == nil {
		var err error
		if raw, err = w.src.Raw(id); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	if w.key != nil {
		var err error
		if raw, err = w.key.seal(raw); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("gitstore: encrypt %s: %w", id.Short(), err)
		}
	}
	w.newObjects++
	w.newBytes += int64(len(raw))
	return w.p.add(plumbing.BlobObject, raw)
}

func (w *exportWriter) sealed(b []byte) ([]byte, error) {
	if w.key == nil {
		return b, nil
	}
	return w.key.seal(b)
}

// commit writes the trees and the commit of an object set.
func (w *exportWriter) commit(set map[objects.ID]plumbing.Hash, h Header, man Manifest, parent plumbing.Hash) (plumbing.Hash, error) {
	hb, _ := json.Marshal(h)
	mb, _ := json.Marshal(man)
	mb, err := w.sealed(mb)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	hh, err := w.p.add(plumbing.BlobObject, hb)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	mh, err := w.p.add(plumbing.BlobObject, mb)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	oh, err := w.fanout(set)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	root, err := w.tree([]object.TreeEntry{{Name: headerPath, Mode: filemode.Regular, Hash: hh},
		{Name: manifestPath, Mode: filemode.Regular, Hash: mh}, {Name: objectsDir, Mode: filemode.Dir, Hash: oh}})
	if err != nil {
		return plumbing.ZeroHash, err
	}
	sig := object.Signature{Name: "ctx", Email: man.Machine + "@ctx", When: man.Created}
	c := &object.Commit{Author: sig, Committer: sig, TreeHash: root,
		Message: fmt.Sprintf("ctx: generation %d of %s (%d sessions, %d events)\n", man.Generation, man.Machine, man.Sessions, man.Events)}
	if !parent.IsZero() {
		c.ParentHashes = []plumbing.Hash{parent}
	}
	o := w.p.newObject()
	if err := c.Encode(o); err != nil {
		return plumbing.ZeroHash, err
	}
	return w.p.addObject(o)
}

// fanout writes objects/<ab>/<cd…>: 256 subtrees at most, so an
// incremental push rewrites only the few its new objects fall in.
func (w *exportWriter) fanout(set map[objects.ID]plumbing.Hash) (plumbing.Hash, error) {
	by := map[string][]object.TreeEntry{}
	for id, h := range set {
		dir, name := objectPath(id)
		by[dir] = append(by[dir], object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h})
	}
	var top []object.TreeEntry
	for dir, entries := range by {
		h, err := w.tree(entries)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		top = append(top, object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: h})
	}
	return w.tree(top)
}

func (w *exportWriter) tree(entries []object.TreeEntry) (plumbing.Hash, error) {
	sort.Sort(object.TreeEntrySorter(entries))
	o := w.p.newObject()
	if err := (&object.Tree{Entries: entries}).Encode(o); err != nil {
		return plumbing.ZeroHash, err
	}
	return w.p.addObject(o)
}
